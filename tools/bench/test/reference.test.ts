/** The bench's hand-written reference validator agrees with the generated one, so its floor is real. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateResponse } from '@x/validators';
import { startNodeStub, STUB_ACCOUNTS, type NodeStubHandle } from '@x/testing';
import { referenceValidPage } from '../src/reference.ts';
import { hexDistinctness } from '../src/validate.ts';

let stub: NodeStubHandle;
let page: { record: Record<string, any>[] }; // eslint-disable-line @typescript-eslint/no-explicit-any -- a JSON body to break
beforeAll(async () => {
  stub = await startNodeStub({ seed: 1 });
  page = (await (await fetch(`${stub.url}/rpc/v2/accounts/${STUB_ACCOUNTS.alice}/transactions?count=100&start=0`)).json()) as typeof page;
});
afterAll(() => stub.close());

describe('the reference validator', () => {
  it('accepts the stub pages the generated validators accept, lenient and strict', async () => {
    for (const name of ['alice', 'busy', 'framework', 'publisher'] as const) {
      const body: unknown = await (await fetch(`${stub.url}/rpc/v2/accounts/${STUB_ACCOUNTS[name]}/transactions?count=100&start=0`)).json();
      for (const strict of [false, true]) {
        expect(validateResponse('listTransactionsV2', 200, body, { strict }).ok).toBe(true);
        expect(referenceValidPage(body, strict), `${name} strict=${String(strict)}`).toBe(true);
      }
    }
  });

  const breakages: [string, (p: typeof page) => void, boolean][] = [
    ['a hash that is no hex', (p) => (p.record[3]!.hash = '0xzz'), false],
    ['an unsafe gas amount', (p) => (p.record[0]!.header.max_gas_amount = 2 ** 60), false],
    ['a sender of 65 digits', (p) => (p.record[1]!.header.sender = `0x${'a'.repeat(65)}`), false],
    ['an unknown status', (p) => (p.record[2]!.status = 'Lost'), false],
    ['an output with two keys', (p) => (p.record[4]!.output = { Dkg: 'Success', Oracle: 'Success' }), false],
    ['an event without data', (p) => delete p.record.find((t) => t.output?.Move)!.output.Move.events[0].data, false],
    ['a chain id of 256', (p) => (p.record[5]!.block_header.view.epoch_id.chain_id = 256), false],
    ['an unknown property (strict only)', (p) => (p.record[6]!.header.extra = 1), true],
  ];
  it.each(breakages)('rejects %s, as validateResponse does', (_what, breakIt, lenientOk) => {
    const broken = structuredClone(page);
    breakIt(broken);
    expect(referenceValidPage(broken, false)).toBe(lenientOk);
    expect(validateResponse('listTransactionsV2', 200, broken).ok).toBe(lenientOk);
    expect(referenceValidPage(broken, true)).toBe(false);
    expect(validateResponse('listTransactionsV2', 200, broken, { strict: true }).ok).toBe(false);
  });

  it('in the live reading: accepts the live-shaped pages and the documented ones, as the live profile does', async () => {
    for (const shapes of ['live', 'documented']) {
      const body: unknown = await (await fetch(`${stub.url}/rpc/v2/accounts/${STUB_ACCOUNTS.alice}/transactions?count=100&start=0`, { headers: { 'x-stub-shapes': shapes } })).json();
      for (const strict of [false, true]) {
        expect(validateResponse('listTransactionsV2', 200, body, { strict, profile: 'live' }).ok).toBe(true);
        expect(referenceValidPage(body, strict, 'live'), `${shapes} strict=${String(strict)}`).toBe(true);
        expect(referenceValidPage(body, strict, 'documented')).toBe(shapes === 'documented');
      }
    }
  });

  const liveBreakages: [string, (p: typeof page) => void][] = [
    ['micros as a string', (p) => (p.record[0]!.block_header.timestamp = { microseconds_since_unix_epoch: '1', utc_date_time: 'x' })],
    ['a sender keyed other than Move', (p) => (p.record[1]!.header.sender = { Evm: p.record[1]!.header.sender })],
    ['a guid whose creation number is a number', (p) => (p.record.find((t) => t.output?.Move)!.output.Move.events[0].guid = { creation_number: 3, account_address: '0x1' })],
    ['a sequence number that is no decimal', (p) => (p.record.find((t) => t.output?.Move)!.output.Move.events[0].sequence_number = '0x1')],
  ];
  it.each(liveBreakages)('in the live reading, rejects %s, as the live profile does', (_what, breakIt) => {
    const broken = structuredClone(page);
    breakIt(broken);
    for (const strict of [false, true]) {
      expect(referenceValidPage(broken, strict, 'live')).toBe(false);
      expect(validateResponse('listTransactionsV2', 200, broken, { strict, profile: 'live' }).ok).toBe(false);
    }
  });

  it('the realistic page has a hash per transaction and block', () => {
    const { total, distinct } = hexDistinctness(page);
    expect(distinct).toBeGreaterThan(total / 2);
    expect(new Set(page.record.map((t) => t.block_header.hash)).size).toBe(100);
  });
});
