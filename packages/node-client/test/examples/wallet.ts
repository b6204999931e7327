import type { NodeClient } from '@x/node-client';
import { coinBalance, coinChanges, coinDecimals, coinInfoOf, coinStoreType, formatAmount, SUPRA_COIN } from '@x/node-client/shapes';

/** An account's balance of a coin as text, e.g. '10013503.24471406 SUPRA'. */
export async function balanceText(node: NodeClient, address: string, coinType: string = SUPRA_COIN): Promise<string> {
  const store = await node.v2.getResource(address, coinStoreType(coinType)); // data: CoinStoreData
  const { address: issuer, resourceType } = coinInfoOf(coinType);
  const info = await node.v2.getResource(issuer, resourceType); // data: CoinInfoData
  return `${formatAmount(coinBalance(store), coinDecimals(info))} ${info.data.symbol}`;
}

/** The newest coin transactions of an account and what each did to its coins, e.g. '0x79bfd4… +39.53360168'. */
export async function activity(node: NodeClient, address: string, count = 10): Promise<string[]> {
  const { record } = await node.v2.listCoinTransactions(address, { count }); // newest first
  return record.map((tx) => {
    const { net } = coinChanges(tx, address);
    return `${tx.hash.slice(0, 8)}… ${net > 0n ? '+' : ''}${formatAmount(net, 8)}`;
  });
}
