import { describe, expect, it } from 'vitest';
import * as validators from '../src/index.ts';
import {
  ValidationError,
  assertMoveModule,
  createResponseValidator,
  isSmrTimestamp,
  validateEvent,
  validateResponse,
  validateSmrTimestamp,
  validateTransactionInfoV1,
  type ValidateOptions,
} from '../src/index.ts';
import { fixtures, transactionInfoV1 } from './fixtures.js';
import { liveModuleAbi, liveModulesV1, liveResourceV1, liveTransactionV1, liveTransactionV3 } from './live-bodies.ts';

const variants: ValidateOptions[] = [{}, { strict: true }, { allErrors: true }, { strict: true, allErrors: true }];

describe("profile: 'live' accepts what live nodes send, 'documented' does not", () => {
  const cases: [operationId: string, body: unknown][] = [
    ['listTransactionsV1', { record: [liveTransactionV1] }],
    ['listCoinTransactionsV1', { record: [liveTransactionV1], cursor: 1_734_471_953_424_357 }],
    ['getModuleV1', liveModuleAbi],
    ['getModuleV2', { bytecode: '0xa11ceb0b0600000009', abi: liveModuleAbi }],
    ['listModulesV2', { modules: [{ bytecode: '0xa11ceb0b', abi: liveModuleAbi }], cursor: null }],
    ['listModulesV1', liveModulesV1],
    ['getResourceV1', liveResourceV1],
    ['listTransactionsV3', [liveTransactionV3]],
    ['listCoinTransactionsV3', [liveTransactionV3, { ...liveTransactionV3, txn_type: 'automated' }]],
    ['getModuleV3', { bytecode: '0xa11ceb0b0600000009', abi: liveModuleAbi }],
    ['listModulesV3', [{ bytecode: '0xa11ceb0b', abi: liveModuleAbi }]],
  ];
  it.each(cases)('%s', (operationId, body) => {
    for (const options of variants) {
      expect(validateResponse(operationId, 200, body, { ...options, profile: 'live' })).toEqual({ ok: true, value: body });
      expect(validateResponse(operationId, 200, body, options).ok).toBe(false);
      expect(validateResponse(operationId, 200, body, { ...options, profile: 'documented' }).ok).toBe(false);
    }
  });

  it('accepts every documented record in the live profile too (the documented form stays valid)', () => {
    for (const [name, value] of Object.entries(fixtures)) {
      const fn = (validators as unknown as Record<string, (v: unknown, o?: ValidateOptions) => { ok: boolean }>)[`validate${name}`]!;
      for (const options of variants) expect(fn(value, { ...options, profile: 'live' }).ok, name).toBe(true);
    }
  });

  it('accepts either form per field: a documented timestamp next to a live sender', () => {
    const mixed = { ...liveTransactionV1, block_header: { ...liveTransactionV1.block_header, timestamp: { timestamp: 1_734_471_953_424_357 } } };
    expect(validateTransactionInfoV1(mixed, { profile: 'live', strict: true }).ok).toBe(true);
  });
});

describe('the live profile still rejects what fits neither form', () => {
  const tx = (patch: (t: typeof liveTransactionV1) => void) => {
    const t = structuredClone(liveTransactionV1);
    patch(t);
    return t;
  };
  const cases: [what: string, value: unknown, path: string, keyword: string, closest: 'documented' | 'observed', action: string][] = [
    ['micros as a string', tx((t) => ((t.block_header.timestamp as Record<string, unknown>).microseconds_since_unix_epoch = '1734471953424357')), '/block_header/timestamp/microseconds_since_unix_epoch', 'type', 'observed', 'timestamp'],
    ['a timestamp of neither form', tx((t) => ((t.header as Record<string, unknown>).expiration_timestamp = { seconds: 1 })), '/header/expiration_timestamp/timestamp', 'required', 'documented', 'timestamp'],
    ['a sender keyed Move with a number', tx((t) => ((t.header as Record<string, unknown>).sender = { Move: 42 })), '/header/sender/Move', 'type', 'observed', 'sender'],
    ['a guid whose creation number is a number', tx((t) => ((t.output.Move.events[0]!.guid as Record<string, unknown>).creation_number = 2)), '/output/Move/events/0/guid/creation_number', 'type', 'observed', 'event-guid'],
    ['a sequence number that is no decimal', tx((t) => ((t.output.Move.events[0] as Record<string, unknown>).sequence_number = '0x1')), '/output/Move/events/0/sequence_number', 'pattern', 'observed', 'event-sequence-number'],
  ];
  it.each(cases)('%s', (_what, value, path, keyword, closest, action) => {
    for (const options of variants) {
      const r = validateTransactionInfoV1(value, { ...options, profile: 'live' });
      expect(r.ok).toBe(false);
      if (r.ok) continue;
      expect(r.issues[0]).toMatchObject({ path, keyword });
      expect(r.issues[0]!.message).toContain(`closest: the ${closest} form`);
      expect(r.issues[0]!.message).toContain(`overlay action ${action}`);
    }
  });

  it('whichever form fitted before (each node tries that one first), the verdicts and issues are the same', () => {
    const documented = structuredClone(transactionInfoV1);
    for (const [, value] of cases.map(([w, v]) => [w, v] as const)) {
      // Each variant (lenient, strict, allErrors...) is its own compiled function with its own memory:
      // prime each with the same options it then runs with.
      const after = (primer: unknown) =>
        variants.map((options) => {
          validateTransactionInfoV1(primer, { ...options, profile: 'live' });
          return validateTransactionInfoV1(value, { ...options, profile: 'live' });
        });
      const afterObserved = after(liveTransactionV1);
      expect(after(documented)).toEqual(afterObserved);
      expect(after(liveTransactionV1)).toEqual(afterObserved);
    }
    expect(validateTransactionInfoV1(documented, { profile: 'live' }).ok).toBe(true);
    expect(validateTransactionInfoV1(liveTransactionV1, { profile: 'live' }).ok).toBe(true);
  });

  it('keeps the other issues of a value as they are (allErrors)', () => {
    const bad = { ...liveTransactionV1, status: 'Lost', header: { ...liveTransactionV1.header, sender: 7 } };
    const r = validateTransactionInfoV1(bad, { profile: 'live', allErrors: true });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues.map((i) => [i.path, i.keyword])).toEqual([
      ['/header/sender', 'type'],
      ['/status', 'enum'],
    ]);
    expect(r.issues[1]!.message).not.toContain('closest');
  });
});

describe('v3 transactions take the live forms of the v2 record they extend', () => {
  const v3 = (patch: (t: typeof liveTransactionV3) => void) => {
    const t = structuredClone(liveTransactionV3);
    patch(t);
    return t;
  };

  it('the tag selects the kind in either reading; a tag outside the union is one issue at the tag', () => {
    for (const options of variants) {
      const r = validateResponse('listTransactionsV3', 200, [liveTransactionV3, { ...liveTransactionV3, txn_type: 'oracle' }], { ...options, profile: 'live' });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.issues[0]).toMatchObject({ path: '/1/txn_type', keyword: 'enum' });
    }
  });

  it.each([
    ['a sender keyed Move with a number', v3((t) => ((t.header as Record<string, unknown>).sender = { Move: 42 })), '/0/header/sender/Move', 'type', 'observed', 'sender'],
    ['a timestamp of neither form', v3((t) => ((t.block_header as Record<string, unknown>).timestamp = { seconds: 1 })), '/0/block_header/timestamp/timestamp', 'required', 'documented', 'timestamp'],
  ] as const)('still rejects what fits neither form: %s', (_what, value, path, keyword, closest, action) => {
    for (const options of variants) {
      const r = validateResponse('listTransactionsV3', 200, [value], { ...options, profile: 'live' });
      expect(r.ok).toBe(false);
      if (r.ok) continue;
      expect(r.issues[0]).toMatchObject({ path, keyword });
      expect(r.issues[0]!.message).toContain(`closest: the ${closest} form`);
      expect(r.issues[0]!.message).toContain(`overlay action ${action}`);
    }
  });
});

describe('profile option', () => {
  it('is orthogonal to strict: an unknown property in a live form fails only strictly', () => {
    const ts = { microseconds_since_unix_epoch: 1, utc_date_time: '1970-01-01T00:00:00.000001+00:00', extra: 1 };
    expect(validateSmrTimestamp(ts, { profile: 'live' }).ok).toBe(true);
    const strict = validateSmrTimestamp(ts, { profile: 'live', strict: true });
    expect(strict.ok).toBe(false);
    if (!strict.ok) expect(strict.issues[0]).toMatchObject({ path: '/extra', keyword: 'additionalProperties' });
  });

  it('works on isX and assertX', () => {
    const ts = liveTransactionV1.block_header.timestamp;
    expect(isSmrTimestamp(ts)).toBe(false);
    expect(isSmrTimestamp(ts, { profile: 'live' })).toBe(true);
    expect(() => assertMoveModule(liveModuleAbi)).toThrow(ValidationError);
    expect(() => assertMoveModule(liveModuleAbi, { profile: 'live', strict: true })).not.toThrow();
  });

  it.each([['lively'], [''], [1], [null]])('rejects profile %j with a RangeError naming it', (profile) => {
    const options = { profile } as unknown as ValidateOptions;
    expect(() => validateEvent({}, options)).toThrow(RangeError);
    expect(() => validateEvent({}, options)).toThrow(/profile must be 'documented' or 'live'/);
    expect(() => isSmrTimestamp({}, options)).toThrow(/profile/);
    expect(() => createResponseValidator(options)).toThrow(RangeError);
    // Also where no schema runs: a null v1 body, an unknown operation.
    expect(() => validateResponse('getAccountV1', 200, null, options)).toThrow(/profile/);
    expect(() => validateResponse('noSuchOperation' as 'getAccountV1', 200, {}, options)).toThrow(RangeError);
  });

  it("createResponseValidator defaults to 'live' (the clients talk to live nodes); validateResponse to 'documented'", () => {
    const body = { record: [liveTransactionV1] };
    expect(createResponseValidator()('listTransactionsV1', 200, body)).toEqual({ ok: true });
    expect(createResponseValidator({ strict: true })('listTransactionsV1', 200, body)).toEqual({ ok: true });
    expect(createResponseValidator({ profile: 'documented' })('listTransactionsV1', 200, body).ok).toBe(false);
    expect(validateResponse('listTransactionsV1', 200, body).ok).toBe(false);
  });
});
