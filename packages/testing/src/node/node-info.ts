/**
 * What the node says of itself and its chain: the gas price it estimates (from the chain's own recent
 * transactions), the chain id (the stub's `chainId`, a bare JSON integer), the transaction parameters
 * (the time to live its transactions are built with) and its build.
 */
import { jsonResponse } from '../router.ts';
import { GAS_UNIT_PRICE } from './chain.ts';
import type { ChainHandler } from './handling.ts';
import type { Ledger } from './ledger.ts';

/** How many of the latest paying transactions the gas price estimate reads. */
const GAS_SAMPLE = 100;
/** A transaction's longest wait for execution: its expiration is this long after it was signed. */
const MAX_TTL_SECONDS = 300;

/** The build this stub answers as: the node's served document's (build v11.5.2), marked as the stub's. */
export const STUB_VERSION = {
  version: '11.5.2',
  branch: 'x-stub',
  commit_hash: '0000000000000000000000000000000000000000',
  build_time: '2026-08-25T00:00:00Z',
  build_env: '@x/testing node stub (no Rust tool chain: a synthetic node)',
} as const;

export function nodeInfoReads(ledger: Ledger, chainId: number) {
  const estimateGasPrice: ChainHandler = () => {
    // The latest transactions that paid for gas (system transactions pay nothing), newest first.
    const prices: number[] = [];
    const blocks = ledger.txBlocks();
    for (let b = blocks.length - 1; b >= 0 && prices.length < GAS_SAMPLE; b--) {
      for (const tx of blocks[b]?.txs ?? []) {
        const price = (tx.render('v2') as { header: { gas_unit_price: number } }).header.gas_unit_price;
        if (price > 0 && prices.length < GAS_SAMPLE) prices.push(price);
      }
    }
    const sorted = prices.sort((a, b) => a - b);
    const median = sorted.length === 0 ? GAS_UNIT_PRICE : (sorted[Math.floor((sorted.length - 1) / 2)] as number);
    const mean = sorted.length === 0 ? GAS_UNIT_PRICE : Math.floor(sorted.reduce((s, p) => s + p, 0) / sorted.length);
    return jsonResponse(200, {
      mean_gas_price: mean,
      max_gas_price: sorted.length === 0 ? GAS_UNIT_PRICE : (sorted[sorted.length - 1] as number),
      median_gas_price: median,
      min_configured_gas_price: GAS_UNIT_PRICE,
    });
  };

  return {
    estimateGasPriceV3: estimateGasPrice,
    getChainIdV1: () => jsonResponse(200, chainId),
    getTransactionParametersV1: () => jsonResponse(200, { max_transaction_time_to_live_seconds: MAX_TTL_SECONDS }),
    getVersionV3: () => jsonResponse(200, STUB_VERSION),
  } satisfies Record<string, ChainHandler>;
}
