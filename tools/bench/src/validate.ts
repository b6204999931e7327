/**
 * Benchmark 1 (and the strict/lenient part of 5): validating one v2 transactions page of 100 records,
 * as served by the stub (busy account, `count=100&start=0`: transfers, failed transfers and entry
 * calls, with their events), against `JSON.parse` of the same body.
 *
 * Arms, interleaved in every round: `JSON.parse(body)`; `validateResponse('listTransactionsV2', 200,
 * value)` (lenient, the default); the same with `{ strict: true }`. The parsed value is parsed once
 * before the rounds, so the validation arms time validation only.
 */
import { validateResponse } from '@x/validators';
import { measureSync, median, pairedRatio } from './harness.ts';
import type { Row } from './report.ts';

export function benchValidatePage(body: string, rounds: number): Row[] {
  const value: unknown = JSON.parse(body);
  for (const strict of [false, true]) {
    const r = validateResponse('listTransactionsV2', 200, value, { strict });
    if (!r.ok) throw new Error(`the page is not valid (${strict ? 'strict' : 'lenient'}): ${JSON.stringify(r.issues)}`);
  }
  const records = (value as { record: unknown[] }).record.length;
  const t = measureSync(
    {
      parse: () => JSON.parse(body),
      lenient: () => validateResponse('listTransactionsV2', 200, value).ok,
      strict: () => validateResponse('listTransactionsV2', 200, value, { strict: true }).ok,
    },
    { rounds },
  );
  const us = (ms: number): number => ms * 1000;
  const kb = Math.round(Buffer.byteLength(body) / 1024);
  const row = (profile: 'lenient' | 'strict'): Row => {
    const r = pairedRatio(t.parse, t[profile]);
    return {
      id: `validate.${profile}`,
      group: '1',
      name: `validate v2 page of ${records} txs (${kb} KiB), ${profile}`,
      a: { label: 'JSON.parse', value: us(median(t.parse)), unit: 'µs' },
      b: { label: profile, value: us(median(t[profile])), unit: 'µs' },
      ratio: r.ratio,
      spread: r.spread,
      ci: r.ci,
      ratioMeaning: `${profile} validation time / JSON.parse time`,
      target: { op: '<=', value: 0.15 },
      samples: { parse: t.parse, [profile]: t[profile] },
    };
  };
  const sl = pairedRatio(t.lenient, t.strict);
  return [
    row('lenient'),
    row('strict'),
    {
      id: 'profiles.page',
      group: '5',
      name: `strict vs lenient, v2 page of ${records} txs`,
      a: { label: 'lenient', value: us(median(t.lenient)), unit: 'µs' },
      b: { label: 'strict', value: us(median(t.strict)), unit: 'µs' },
      ratio: sl.ratio,
      spread: sl.spread,
      ci: sl.ci,
      ratioMeaning: 'strict validation time / lenient validation time',
    },
  ];
}
