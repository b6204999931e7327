/**
 * Regenerates the recordings that conformance CI validates: starts the stubs on loopback (fixed clocks,
 * seed 1) and runs the real `x-validate record` CLI for a few accounts that together exercise every
 * operation record can fill (the reads beyond accounts too: a transaction by hash, the latest block and
 * one by height and hash, an events walk, the view of the node's clock, gas price, chain id, transaction
 * parameters, version, the faucet with `--fund-from-faucet`: the stub funds a fake account) and every union form, twice: against the node stub in the documented shapes
 * (`specs/recorded`) and in the live shapes (`specs/recorded-live`, what real nodes send).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startNodeStub, startPriceStub, STUB_ACCOUNTS, DEFAULT_PRICE_API_KEY, DEFAULT_PRICE_NOW, type Shapes } from '@x/testing';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const cli = `${root}packages/validators/src/cli/main.ts`;
const OUT: Record<Shapes, string> = { documented: `${root}specs/recorded`, live: `${root}specs/recorded-live` };

// The price clock fixed at DEFAULT_PRICE_NOW, passed explicitly: the recorded prices are the same each run.
const price = await startPriceStub({ port: 0, seed: 1, now: () => DEFAULT_PRICE_NOW });
try {
  for (const shapes of ['documented', 'live'] as const) {
    // The node's clock fixed too (at the price clock's moment): the latest block, and the clock a view
    // of 0x1::timestamp reads, are the same each run.
    const node = await startNodeStub({ port: 0, seed: 1, shapes, now: () => DEFAULT_PRICE_NOW });
    try {
      const out = OUT[shapes];
      rmSync(out, { recursive: true, force: true });
      const accounts = [STUB_ACCOUNTS.framework, STUB_ACCOUNTS.publisher, STUB_ACCOUNTS.alice];
      for (const [i, address] of accounts.entries()) {
        const priceArgs = i === 0 ? ['--price-base-url', price.url, '--pair', 'btc_usdt'] : [];
        // Asynchronous: the stubs answer from this process's event loop while the CLI runs.
        const child = spawn('tsx', [cli, 'record', '--base-url', node.url, '--address', address, '--out', out, '--fund-from-faucet', ...priceArgs], {
          stdio: 'inherit',
          env: { ...process.env, SUPRA_PRICE_API_KEY: DEFAULT_PRICE_API_KEY },
        });
        const [code] = (await once(child, 'exit')) as [number | null];
        if (code !== 0) throw new Error(`x-validate record failed for ${address} (${shapes} shapes)`);
      }
    } finally {
      await node.close();
    }
  }
} finally {
  await price.close();
}
