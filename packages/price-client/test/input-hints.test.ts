/**
 * The usual mistakes of a price query get a clear answer before any request: an InvalidArgumentError
 * naming the parameter, echoing the value and saying what was probably meant. Times in seconds (or a
 * node's microseconds) where milliseconds belong, a resolution in milliseconds where seconds belong, a
 * base URL without a scheme or with an API path. Values at the edges of those thresholds still go out.
 * The key is never in a message.
 */
import { describe, expect, it } from 'vitest';
import { createPriceClient, explain, InvalidArgumentError, NetworkError, type HistoryParameters } from '@x/price-client';
import { rejectionOf, usePriceStub } from '@x-tools/test-helpers';
import { client, DAY, KEY, NOW } from './helpers.ts';

const ctx = usePriceStub({ apiKey: KEY });
const valid = { pair: 'btc_usdt', start: NOW - DAY, end: NOW, resolution: 3600 };
const S = Math.floor(NOW / 1000);

describe('history and historyRange: the unit that was probably meant', () => {
  const cases: [label: string, change: Partial<HistoryParameters>, parameter: string, hint: string][] = [
    ['start in seconds', { start: S - 86_400 }, 'start', `Invalid argument 'start': ${S - 86_400} looks like seconds, not milliseconds: did you mean ${(S - 86_400) * 1000} (${new Date((S - 86_400) * 1000).toISOString()})?`],
    ['start 1 (a second, in seconds)', { start: 1 }, 'start', '1 looks like seconds, not milliseconds: did you mean 1000 (1970-01-01T00:00:01.000Z)?'],
    ['end in seconds, start in ms', { end: S }, 'end', `${S} looks like seconds, not milliseconds: did you mean ${S * 1000} (`],
    ['a Date made from seconds', { start: new Date(S - 3600) }, 'start', `${new Date(S - 3600).toISOString()} looks like seconds, not milliseconds: did you mean ${(S - 3600) * 1000} (${new Date((S - 3600) * 1000).toISOString()})?`],
    ['start in microseconds (a node timestamp)', { start: (NOW - DAY) * 1000 }, 'start', `${(NOW - DAY) * 1000} looks like microseconds, not milliseconds: did you mean ${NOW - DAY} (${new Date(NOW - DAY).toISOString()})?`],
    ['end in microseconds', { end: NOW * 1000 }, 'end', `looks like microseconds, not milliseconds: did you mean ${NOW} (`],
    ['start just below 1e11 ms', { start: 99_999_999_999 }, 'start', 'looks like seconds'],
    ['end at 1e14 ms', { end: 1e14 }, 'end', 'looks like microseconds'],
    ['resolution of one hour in ms', { resolution: 3_600_000 }, 'resolution', "Invalid argument 'resolution': 3600000 looks like milliseconds, not seconds: did you mean 3600?"],
    ['resolution of one minute in ms', { resolution: 60_000 }, 'resolution', '60000 looks like milliseconds, not seconds: did you mean 60?'],
    ['resolution of 15 s in ms', { resolution: 15_000 }, 'resolution', 'did you mean 15?'],
    ['resolution of a day in ms', { resolution: 86_400_000 }, 'resolution', 'did you mean 86400?'],
    ['a pair as exchanges write it', { pair: 'BTC-USDT' }, 'pair', `got "BTC-USDT": did you mean "btc_usdt"?`],
    ['a pair with a slash', { pair: 'eth/usdt' }, 'pair', `did you mean "eth_usdt"?`],
    ['an ISO date string, quoted, with the Date meant', { start: '2024-11-19T00:00:00Z' as unknown as number }, 'start', `got "2024-11-19T00:00:00Z" (did you mean new Date("2024-11-19T00:00:00Z")?)`],
  ];

  it.each(cases)('history: %s', async (_label, change, parameter, hint) => {
    const err = await rejectionOf(client(ctx.stub).history({ ...valid, ...change }));
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', parameter });
    expect((err as Error).message).toContain(`Invalid argument '${parameter}': `);
    expect((err as Error).message).toContain(hint);
    expect((err as Error).message).not.toContain(KEY);
    expect(ctx.stub.requests).toHaveLength(0);
  });

  it.each(cases)('historyRange: %s', async (_label, change, parameter, hint) => {
    const err = await rejectionOf(client(ctx.stub).historyRange({ ...valid, ...change }).next());
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', parameter });
    expect((err as Error).message).toContain(hint);
    expect(ctx.stub.requests).toHaveLength(0);
  });

  const fine: [label: string, change: Partial<HistoryParameters>][] = [
    ['start 0 (the epoch is the same in every unit)', { start: 0, end: 0 }],
    ['start at 1e11 ms (1973-03-03)', { start: 1e11, end: 1e11 + DAY }],
    ['end just below 1e14 ms', { start: NOW, end: 1e14 - 1 }],
    ['resolution 14,000 s (below the threshold)', { resolution: 14_000 }],
    ['resolution 15,500 s (not whole thousands)', { resolution: 15_500 }],
    ['resolution 86,400 s (a day)', { resolution: 86_400 }],
    ['resolution 604,800 s (a week)', { resolution: 604_800 }],
  ];

  it.each(fine)('sent as given: %s', async (_label, change) => {
    await client(ctx.stub).history({ ...valid, ...change });
    expect(ctx.stub.requests).toHaveLength(1);
    ctx.stub.reset();
  });
});

describe('baseUrl: the URL that was probably meant', () => {
  const cases: [label: string, baseUrl: string, hint: string | undefined][] = [
    ['without a scheme', 'prod-kline-rest.supra.com', '(did you mean "https://prod-kline-rest.supra.com"?)'],
    ['with /history', 'https://prod-kline-rest.supra.com/history', 'ends in /history, got "https://prod-kline-rest.supra.com/history" (did you mean "https://prod-kline-rest.supra.com"?)'],
    ['with /latest/', 'https://prod-kline-rest.supra.com/latest/', 'ends in /latest/, got "https://prod-kline-rest.supra.com/latest/" (did you mean "https://prod-kline-rest.supra.com"?)'],
    ['a key in the query, without a scheme: no echo', `prod-kline-rest.supra.com/history?api_key=${KEY}`, undefined],
  ];

  it.each(cases)('%s', (_label, baseUrl, hint) => {
    let caught: unknown;
    try {
      createPriceClient({ baseUrl, apiKey: KEY });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(InvalidArgumentError);
    expect(caught).toMatchObject({ code: 'INVALID_ARGUMENT', parameter: 'baseUrl' });
    // The message is short; explain(err) says what was probably meant.
    const message = `${(caught as Error).message} ${explain(caught)}`;
    for (const part of hint?.split(' (did you ') ?? []) expect(message).toContain(part.startsWith('mean') ? `(did you ${part}` : part);
    if (!hint) expect(message).not.toContain('did you mean');
    expect(message).not.toContain(KEY);
  });
});

it('explain of a missing key says to pass apiKey, not the header rules', async () => {
  const err = await rejectionOf(createPriceClient({ baseUrl: ctx.stub.url }).history(valid));
  expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', parameter: 'apiKey' });
  expect(explain(err)).toContain('pass `apiKey` to createPriceClient');
});

// Every other refusal of the key gets the key's own rules, not those of headers in general.
it.each([
  ['empty', ''],
  ['blank', '  '],
  ['not text', 42],
  ['a line break inside', 'k\r\nx-evil: 1'],
])('explain of an apiKey refused as %s says what a key must be', (_case, apiKey) => {
  let caught: unknown;
  try {
    createPriceClient({ baseUrl: ctx.stub.url, apiKey: apiKey as string });
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(InvalidArgumentError);
  expect(caught).toMatchObject({ code: 'INVALID_ARGUMENT', parameter: 'apiKey' });
  expect(explain(caught)).toContain('non-empty string, sent as the `x-api-key` header');
  expect(explain(caught)).not.toContain('A header name is a token');
});

describe('a refused fetch keeps its cause', () => {
  it('bad port', async () => {
    const err = await rejectionOf(createPriceClient({ baseUrl: 'http://127.0.0.1:1', apiKey: KEY, retry: false }).history(valid));
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toBe(`GET http://127.0.0.1:1/history?trading_pair=btc_usdt&startDate=${valid.start}&endDate=${valid.end}&interval=3600: fetch failed: bad port`);
    expect((err as Error).message).not.toContain(KEY);
  });
});
