import { isNotFound, type NodeClient } from '@x/node-client';
import { coinBalance, coinChanges, coinDecimals, coinInfoOf, coinStoreType, formatAmount, SUPRA_COIN } from '@x/node-client/shapes';

/** An account's balance of a coin as text, e.g. '10013503.24471406 SUPRA'; '0 USDC' for an account that never held it. */
export async function balanceText(node: NodeClient, address: string, coinType: string = SUPRA_COIN): Promise<string> {
  const { address: issuer, resourceType } = coinInfoOf(coinType);
  const info = await node.v2.getResource(issuer, resourceType); // data: CoinInfoData
  let balance = 0n;
  try {
    balance = coinBalance(await node.v2.getResource(address, coinStoreType(coinType))); // data: CoinStoreData
  } catch (err) {
    // A node answers 404 both for an unknown account and for one that never held the coin: ask which.
    if (!isNotFound(err)) throw err;
    await node.v2.getAccount(address); // an unknown account: its own 404
  }
  return `${formatAmount(balance, coinDecimals(info))} ${info.data.symbol}`;
}

/** The newest coin transactions of an account and what each did to its coins, e.g. '0x79bfd4… +39.53360168'. */
export async function activity(node: NodeClient, address: string, count = 10): Promise<string[]> {
  const { record } = await node.v2.listCoinTransactions(address, { count }); // newest first
  return record.map((tx) => {
    const { net } = coinChanges(tx, address);
    return `${tx.hash.slice(0, 8)}… ${net > 0n ? '+' : ''}${formatAmount(net, 8)}`;
  });
}
