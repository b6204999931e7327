/**
 * Benchmark 1 (and the strict/lenient part of 5): validating v2 transactions pages of 100 records, as
 * the stub serves them, against `JSON.parse` of the same body.
 *
 * - The target rows validate a realistic page: an ordinary account's (alice), whose transactions each
 *   sit in a block of their own, with distinct hashes and signatures (the stub's realism test holds it
 *   to that). The row names say how many of the page's hex values are distinct, and the case fails if
 *   the page repeats itself (a benchmark on repetitive data measures the branch predictor).
 * - The same page in the live shapes (`x-stub-shapes: live`) with `profile: 'live'`: same targets.
 * - The busy account's page (bursts share blocks) is an information row.
 * - A hand-written validator (reference.ts) on the realistic page gives the floor; the floor rows say
 *   how far each profile is from it.
 * - Bytes allocated per page validated (valid input), with V8's sampling heap profiler.
 *
 * Arms of one page are interleaved in every round; each page is parsed once before the rounds, so the
 * validation arms time validation only.
 */
import { Session } from 'node:inspector/promises';
import { validateResponse, type ValidateOptions } from '@x/validators';
import { measureSync, median, pairedRatio } from './harness.ts';
import { referenceValidPage } from './reference.ts';
import type { Row } from './report.ts';

/** The pages the case fetches from the stub. */
export type Pages = { realistic: string; realisticLive: string; busy: string };

/** Every string value of hex digits (hashes, keys, signatures, addresses), and how many are distinct. */
export function hexDistinctness(value: unknown): { total: number; distinct: number } {
  const all: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      if (/^0x[0-9a-fA-F]{16,}$/.test(v)) all.push(v);
    } else if (v !== null && typeof v === 'object') {
      for (const x of Object.values(v)) walk(x);
    }
  };
  walk(value);
  return { total: all.length, distinct: new Set(all).size };
}

/** Hashes, block hashes and signatures of a page: each must be distinct on a realistic page. */
function assertRealistic(value: unknown): string {
  const record = (value as { record: Array<{ hash: string; block_header: { hash: string }; authenticator: { Move?: { Ed25519?: { signature: string } } } }> }).record;
  for (const [what, pick] of [
    ['transaction hashes', (t: (typeof record)[number]) => t.hash],
    ['block hashes', (t: (typeof record)[number]) => t.block_header.hash],
    ['signatures', (t: (typeof record)[number]) => t.authenticator.Move?.Ed25519?.signature],
  ] as const) {
    const distinct = new Set(record.map(pick)).size;
    if (distinct !== record.length) throw new Error(`the realistic page repeats its ${what} (${distinct} distinct of ${record.length})`);
  }
  const { total, distinct } = hexDistinctness(value);
  return `${distinct} of ${total} hex values distinct`;
}

const OPERATION = 'listTransactionsV2';
const us = (ms: number): number => ms * 1000;
const kib = (body: string): number => Math.round(Buffer.byteLength(body) / 1024);

function ensureValid(value: unknown, options: ValidateOptions, what: string): void {
  const r = validateResponse(OPERATION, 200, value, options);
  if (!r.ok) throw new Error(`${what} is not valid (${JSON.stringify(options)}): ${JSON.stringify(r.issues)}`);
}

type PageTimes = { parse: number[]; lenient: number[]; strict: number[] };

function timePage(body: string, value: unknown, profile: 'documented' | 'live', rounds: number, extra: Record<string, () => unknown> = {}): PageTimes & Record<string, number[]> {
  const lenient: ValidateOptions = { profile };
  const strict: ValidateOptions = { profile, strict: true };
  return measureSync(
    {
      parse: () => JSON.parse(body),
      lenient: () => validateResponse(OPERATION, 200, value, lenient).ok,
      strict: () => validateResponse(OPERATION, 200, value, strict).ok,
      ...extra,
    },
    { rounds },
  ) as PageTimes & Record<string, number[]>;
}

function ratioRow(id: string, group: string, name: string, base: { label: string; t: number[] }, arm: { label: string; t: number[] }, meaning: string, target?: number): Row {
  const r = pairedRatio(base.t, arm.t);
  return {
    id,
    group,
    name,
    a: { label: base.label, value: us(median(base.t)), unit: 'µs' },
    b: { label: arm.label, value: us(median(arm.t)), unit: 'µs' },
    ratio: r.ratio,
    spread: r.spread,
    ci: r.ci,
    ratioMeaning: meaning,
    ...(target === undefined ? {} : { target: { op: '<=' as const, value: target } }),
    samples: { [base.label]: base.t, [arm.label]: arm.t },
  };
}

/** Validation targets of issue 19: lenient <= 0.15, strict <= 0.18 x JSON.parse. */
const TARGET = { lenient: 0.15, strict: 0.18 } as const;

export async function benchValidatePages(pages: Pages, rounds: number): Promise<Row[]> {
  const rows: Row[] = [];
  const realistic: unknown = JSON.parse(pages.realistic);
  const realisticLive: unknown = JSON.parse(pages.realisticLive);
  const busy: unknown = JSON.parse(pages.busy);
  const distinct = assertRealistic(realistic);
  assertRealistic(realisticLive);
  for (const strict of [false, true]) {
    ensureValid(realistic, { strict }, 'the realistic page');
    ensureValid(realistic, { strict, profile: 'live' }, 'the realistic page under the live profile');
    ensureValid(realisticLive, { strict, profile: 'live' }, 'the realistic page in the live shapes');
    ensureValid(busy, { strict }, 'the busy page');
    if (!referenceValidPage(realistic, strict)) throw new Error('the reference validator rejects the realistic page');
    if (!referenceValidPage(realisticLive, strict, 'live')) throw new Error('the live reference validator rejects the live page');
  }
  const n = (realistic as { record: unknown[] }).record.length;

  // The realistic page, documented reading, with the reference validator in the same rounds.
  const t = timePage(pages.realistic, realistic, 'documented', rounds, {
    referenceLenient: () => referenceValidPage(realistic, false),
    referenceStrict: () => referenceValidPage(realistic, true),
  });
  const page = `v2 page of ${n} txs, ${n} blocks (${kib(pages.realistic)} KiB; ${distinct})`;
  for (const p of ['lenient', 'strict'] as const) {
    rows.push(ratioRow(`validate.${p}`, '1', `validate realistic ${page}, ${p}`, { label: 'JSON.parse', t: t.parse }, { label: p, t: t[p] }, `${p} validation time / JSON.parse time`, TARGET[p]));
  }
  for (const p of ['lenient', 'strict'] as const) {
    const ref = p === 'lenient' ? t.referenceLenient! : t.referenceStrict!;
    rows.push(ratioRow(`validate.floor.${p}`, '1', `hand-written reference vs validateResponse, ${p}, realistic page`, { label: 'reference', t: ref }, { label: p, t: t[p] }, `validateResponse time / reference validator time (1.0 is the floor)`));
    rows.push(ratioRow(`validate.reference.${p}`, '1', `hand-written reference validator, ${p}, realistic page`, { label: 'JSON.parse', t: t.parse }, { label: 'reference', t: ref }, `reference validation time / JSON.parse time`));
  }
  const sl = pairedRatio(t.lenient, t.strict);
  rows.push({
    id: 'profiles.page',
    group: '5',
    name: `strict vs lenient, realistic v2 page of ${n} txs`,
    a: { label: 'lenient', value: us(median(t.lenient)), unit: 'µs' },
    b: { label: 'strict', value: us(median(t.strict)), unit: 'µs' },
    ratio: sl.ratio,
    spread: sl.spread,
    ci: sl.ci,
    ratioMeaning: 'strict validation time / lenient validation time',
  });

  // The same page in the live shapes, live profile: the same targets, and the live reference's floor.
  const live = timePage(pages.realisticLive, realisticLive, 'live', rounds, {
    referenceLenient: () => referenceValidPage(realisticLive, false, 'live'),
    referenceStrict: () => referenceValidPage(realisticLive, true, 'live'),
  });
  for (const p of ['lenient', 'strict'] as const) {
    rows.push(ratioRow(`validate.live.${p}`, '1', `validate realistic page in the live shapes (${kib(pages.realisticLive)} KiB), profile live, ${p}`, { label: 'JSON.parse', t: live.parse }, { label: p, t: live[p] }, `${p} validation time / JSON.parse time`, TARGET[p]));
    const ref = p === 'lenient' ? live.referenceLenient! : live.referenceStrict!;
    rows.push(ratioRow(`validate.floor.live.${p}`, '1', `hand-written reference vs validateResponse, live profile, ${p}, live page`, { label: 'reference', t: ref }, { label: p, t: live[p] }, `validateResponse time / reference validator time (1.0 is the floor)`));
  }

  // The documented page under the live profile: what a client's injected validator does by default
  // (createResponseValidator defaults to live) against a node that answers as the document says.
  const liveOnDocumented = timePage(pages.realistic, realistic, 'live', rounds);
  for (const p of ['lenient', 'strict'] as const) {
    rows.push(ratioRow(`validate.live-on-documented.${p}`, '1', `validate the realistic documented page, profile live (the clients' default), ${p}`, { label: 'JSON.parse', t: liveOnDocumented.parse }, { label: p, t: liveOnDocumented[p] }, `${p} validation time / JSON.parse time`, TARGET[p]));
  }

  // The busy account's page (bursts share blocks): information.
  const b = timePage(pages.busy, busy, 'documented', rounds);
  const busyDistinct = hexDistinctness(busy);
  for (const p of ['lenient', 'strict'] as const) {
    rows.push(ratioRow(`validate.busy.${p}`, '1', `validate busy-account page (${kib(pages.busy)} KiB; ${busyDistinct.distinct} of ${busyDistinct.total} hex values distinct), ${p}`, { label: 'JSON.parse', t: b.parse }, { label: p, t: b[p] }, `${p} validation time / JSON.parse time`));
  }

  rows.push(await allocationRow(realistic, realisticLive));
  return rows;
}

/** Bytes allocated per call of `task` (sampling heap profiler, freed objects included). */
async function bytesPerCall(session: Session, task: () => unknown, calls: number): Promise<number> {
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 32,
    ...{ includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true },
  });
  for (let i = 0; i < calls; i++) task();
  const { profile } = await session.post('HeapProfiler.stopSampling');
  type Node = { selfSize: number; children: Node[] };
  const sum = (n: Node): number => n.children.reduce((total, c) => total + sum(c), n.selfSize);
  return sum(profile.head as unknown as Node) / calls;
}

/**
 * Bytes allocated per valid page validated: `validateResponse` against a baseline that allocates just
 * the result object (`{ ok: true, value }`), so the difference is what the validators allocate.
 */
async function allocationRow(realistic: unknown, realisticLive: unknown): Promise<Row> {
  // Enough calls that the sampler's estimate is within a few bytes (4,000 at 64 B showed up to 21 B of noise).
  const calls = 20_000;
  // Options made once, as a caller keeps them (an object literal per call would be the arm's own bytes).
  const strict: ValidateOptions = { strict: true };
  const live: ValidateOptions = { profile: 'live' };
  const arms = {
    baseline: () => ({ ok: true, value: realistic }),
    lenient: () => validateResponse(OPERATION, 200, realistic),
    strict: () => validateResponse(OPERATION, 200, realistic, strict),
    liveLenient: () => validateResponse(OPERATION, 200, realisticLive, live),
    liveOnDocumented: () => validateResponse(OPERATION, 200, realistic, live),
  };
  for (const task of Object.values(arms)) for (let i = 0; i < 2_000; i++) task();
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  const bytes: Record<keyof typeof arms, number> = { baseline: 0, lenient: 0, strict: 0, liveLenient: 0, liveOnDocumented: 0 };
  try {
    for (const [k, task] of Object.entries(arms) as [keyof typeof arms, () => unknown][]) bytes[k] = await bytesPerCall(session, task, calls);
  } finally {
    session.disconnect();
  }
  const extra = (k: keyof typeof arms): number => Math.max(0, Math.round(bytes[k] - bytes.baseline));
  const worst = Math.max(bytes.lenient, bytes.strict, bytes.liveLenient, bytes.liveOnDocumented);
  return {
    id: 'validate.alloc',
    group: '1',
    name: `bytes allocated per valid realistic page validated (${calls.toLocaleString('en')} calls each)`,
    a: { label: 'result object', value: bytes.baseline, unit: 'B' },
    b: { label: 'most of 4 arms', value: worst, unit: 'B' },
    ratio: worst / Math.max(1, bytes.baseline),
    ratioMeaning: 'bytes per page of the arm that allocates most (lenient, strict, live, live on a documented page) / bytes of the result object alone',
    // Target 0 bytes beyond the result object; the sampling profiler's estimate gets 16 B of slack, less
    // than the smallest object a call could allocate.
    target: { op: '<=', a: bytes.baseline, b: bytes.baseline + 16, on: 'values' },
    note: `beyond the result object: lenient ${extra('lenient')} B, strict ${extra('strict')} B, live lenient ${extra('liveLenient')} B, live profile on the documented page ${extra('liveOnDocumented')} B per page (target 0)`,
    samples: bytes,
  };
}
