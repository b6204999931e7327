/**
 * What the README says of the fake service's 30 days: "the last 30 days" of hourly candles are 719 while
 * the clock stands inside an hour (the oldest hour began before the 30 days, the current one is open),
 * 720 when it stands on the hour. And what it says of a range too large for one request: `history`'s
 * error points to `historyRange`, which reads the same range in windows.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '@x/price-client';
import { startPriceStub, type PriceStubHandle } from '@x/testing';
import { rejectionOf } from '@x-tools/test-helpers';
import { client, DAY, HOUR, KEY, NOW } from './helpers.ts';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const INSIDE = NOW + 17 * 60_000 + 5_000; // 00:17:05, inside an hour
let onTheHour: PriceStubHandle;
let insideAnHour: PriceStubHandle;
beforeAll(async () => {
  [onTheHour, insideAnHour] = await Promise.all([startPriceStub({ port: 0, apiKey: KEY, now: () => NOW }), startPriceStub({ port: 0, apiKey: KEY, now: () => INSIDE })]);
});
afterAll(async () => {
  await Promise.all([onTheHour.close(), insideAnHour.close()]);
});

describe('the last 30 days of hourly candles', () => {
  it('are 719 inside an hour and 720 on the hour, as the README says', async () => {
    expect(readme).toContain('(`start: now - 30 * 86_400_000`) are **719**, not 720');
    const last30 = (stub: PriceStubHandle, now: number) => client(stub).history({ pair: 'btc_usdt', start: now - 30 * DAY, end: now, resolution: 3600 });
    const inside = await last30(insideAnHour, INSIDE);
    expect(inside).toHaveLength(719);
    expect(inside[0]!.timestamp).toBe(NOW - 30 * DAY + HOUR); // the hour that began before the 30 days is not kept
    expect(inside.at(-1)!.timestamp).toBe(NOW - HOUR); // the current hour (from NOW) is still open
    expect(await last30(onTheHour, NOW)).toHaveLength(720);
  });
});

describe('a range over the limit of one request', () => {
  it("history's error says to use historyRange, which reads the same range", async () => {
    const range = { pair: 'btc_usdt', start: NOW - 20 * DAY, end: NOW - 1, resolution: 60 };
    const err = await rejectionOf(client(onTheHour).history(range));
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ status: 400, body: { error: 'range_too_large' } });
    expect((err as Error).message).toMatch(/; historyRange splits a long range into windows$/);
    expect((err as Error).stack).toContain('historyRange splits');
    let n = 0;
    for await (const _ of client(onTheHour).historyRange(range)) n++;
    expect(n).toBe(20 * 24 * 60);
  });
});
