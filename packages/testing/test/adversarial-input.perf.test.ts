/**
 * What a client sends cannot make the stubs work super-linearly: 100,000 adversarial characters in each
 * place a request reaches the stub are answered in time linear in their length, measured as a ratio to
 * 1,000 characters of the same kind in the same run, never as a wall-clock limit. A `perf` project file
 * (`pnpm test:perf`): run alone, so no other test file shares the CPU while it times; the 4xx each is
 * answered with is adversarial-input.test.ts's check.
 */
import { describe, expect, it } from 'vitest';
import { CASES, LONG, send, SHORT } from './adversarial-requests.ts';

/** Best of three durations of sending `r` and reading the answer, in ms, so that one run slowed by another process does not count. */
async function timed(...[stub, r]: Parameters<typeof send>): Promise<number> {
  let ms = Infinity;
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    await (await send(stub, r)).text();
    ms = Math.min(ms, performance.now() - t);
  }
  return ms;
}

describe('100,000 adversarial characters: in time linear in their length', () => {
  it.each(CASES)('$name', async ({ stub, make }) => {
    const short = await timed(stub, make(SHORT));
    const long = await timed(stub, make(LONG));
    // 100 times the input: linear work takes up to ~100 times as long, quadratic 10,000 times. 1,000
    // leaves room for a loaded machine and still fails quadratic work tenfold.
    expect(long, `${LONG} characters took ${long.toFixed(1)} ms vs ${short.toFixed(2)} ms for ${SHORT}`).toBeLessThan(Math.max(short, 0.2) * 1_000);
  });
});
