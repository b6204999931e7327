/**
 * `x-stub` says which clock its price stub uses: the wall clock by default, as the library's (so "the last
 * 24 hours" has candles), the fixed DEFAULT_PRICE_NOW with --fixed-clock (so tests that fix the library's
 * stubs at it match it); every price answer carries it in x-stub-clock.
 *
 * The command runs in-process (runStub, which the x-stub command runs), but for the default clock: that
 * is the one spawned run of the command, as a user starts it, stopped by SIGTERM.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICE_NOW } from '@x/testing';
import { stubCommand, withCli, withStubCommand } from './helpers.ts';

const HOUR = 3_600_000;
const history = async (priceUrl: string, end: number): Promise<unknown[]> => {
  const url = `${priceUrl}/history?trading_pair=btc_usdt&startDate=${end - 24 * HOUR}&endDate=${end - 1}&interval=3600`;
  const body = (await (await fetch(url, { headers: { 'x-api-key': 'test-key' } })).json()) as { data: unknown[] };
  return body.data;
};
const clockOf = async (priceUrl: string): Promise<string | null> => (await fetch(`${priceUrl}/latest`)).headers.get('x-stub-clock');

describe('x-stub clock', () => {
  it('uses the wall clock by default and says so; the last 24 hours have 24 hourly candles', async () => {
    await withCli([], async ({ out, priceUrl }) => {
      expect(out).toMatch(/price clock: real \(the wall clock\)/);
      expect(out).toContain(`--fixed-clock fixes it at ${new Date(DEFAULT_PRICE_NOW).toISOString()}`);
      expect(await history(priceUrl, Math.floor(Date.now() / HOUR) * HOUR)).toHaveLength(24);
      expect(await history(priceUrl, DEFAULT_PRICE_NOW)).toEqual([]); // long out of retention
      const before = Date.now();
      const clock = Date.parse((await clockOf(priceUrl)) ?? '');
      expect(clock).toBeGreaterThanOrEqual(before);
      expect(clock).toBeLessThanOrEqual(Date.now());
    });
  });

  it('with --fixed-clock, stands at DEFAULT_PRICE_NOW and says so', async () => {
    await withStubCommand(['--fixed-clock'], async ({ out, priceUrl }) => {
      expect(out).toContain(`price clock: fixed at ${new Date(DEFAULT_PRICE_NOW).toISOString()} (--fixed-clock)`);
      expect(await history(priceUrl, DEFAULT_PRICE_NOW)).toHaveLength(24);
      expect(await history(priceUrl, Math.floor(Date.now() / HOUR) * HOUR)).toEqual([]); // the future of its clock
      expect(await clockOf(priceUrl)).toBe(new Date(DEFAULT_PRICE_NOW).toISOString());
    });
  });

  it('--help says the wall clock is the default, here as in the library, and names x-stub-clock', async () => {
    const { run, printed } = await stubCommand(['--help']);
    expect(run).toBe(0);
    expect(printed.err).toBe('');
    const stdout = printed.out;
    expect(stdout).toContain(`--fixed-clock price stub clock fixed at ${new Date(DEFAULT_PRICE_NOW).toISOString()} (DEFAULT_PRICE_NOW)`);
    expect(stdout).toContain('of the wall clock (the default, here as in the library)');
    expect(stdout).toContain('x-stub-clock');
  });
});
