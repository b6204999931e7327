/**
 * Iterators over malformed pages: with no validator injected, a 200 page that lacks what the walk reads
 * rejects with a `ResponseShapeError` naming where (a JSON pointer), never a TypeError from inside the
 * walk; with a validator, the validator's `ResponseValidationError`. A scripted loopback server answers
 * each case's body with 200.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientError, createNodeClient, ResponseShapeError, ResponseValidationError, type NodeClient } from '@x/node-client';
import { createResponseValidator } from '@x/validators';
import { startScriptedServer, type ScriptedServer } from '@x-tools/scripted-server';

let server: ScriptedServer;
let body = 'null';
beforeAll(async () => {
  server = await startScriptedServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
});
afterAll(() => server.close());

const tx = { header: { sequence_number: 0 } };
const walk = async (items: AsyncIterable<unknown>): Promise<void> => {
  for await (const _ of items) {
    // read every item, as a caller would
  }
};

type Case = [string, (n: NodeClient) => AsyncIterable<unknown>, unknown, string, string];
const cases: Case[] = [];
for (const v of ['v1', 'v2'] as const) {
  cases.push(
    [`${v}.transactions`, (n) => n[v].transactions('0x1'), null, '', 'an object'],
    [`${v}.transactions`, (n) => n[v].transactions('0x1'), [tx], '', 'an object'],
    [`${v}.transactions`, (n) => n[v].transactions('0x1'), { record: null }, '/record', 'an array'],
    [`${v}.transactions`, (n) => n[v].transactions('0x1', { pageSize: 1 }), { record: [{ header: {} }] }, '/record/0/header/sequence_number', 'a u64'],
    [`${v}.transactions`, (n) => n[v].transactions('0x1', { pageSize: 1 }), { record: [null] }, '/record/0/header/sequence_number', 'a u64'],
    [`${v}.coinTransactions`, (n) => n[v].coinTransactions('0x1'), { cursor: 3 }, '/record', 'an array'],
    [`${v}.coinTransactions`, (n) => n[v].coinTransactions('0x1'), { record: [tx], cursor: 'x' }, '/cursor', 'a u64'],
  );
  if (v === 'v2') {
    cases.push(
      ['v2.modules', (n) => n.v2.modules('0x1'), 'text', '', 'an object'],
      ['v2.modules', (n) => n.v2.modules('0x1'), { modules: {} }, '/modules', 'an array'],
      ['v2.modules', (n) => n.v2.modules('0x1'), { modules: [], cursor: 5 }, '/cursor', 'a string or null'],
      ['v2.resources', (n) => n.v2.resources('0x1'), { resources: null }, '/resources', 'an array'],
    );
  } else {
    cases.push(
      ['v1.modules', (n) => n.v1.modules('0x1'), { Modules: null }, '/Modules', 'an object'],
      ['v1.modules', (n) => n.v1.modules('0x1'), { Resources: { resource: [] } }, '/Modules', 'an object'],
      ['v1.modules', (n) => n.v1.modules('0x1'), { Modules: { modules: 1 } }, '/Modules/modules', 'an array'],
      ['v1.modules', (n) => n.v1.modules('0x1'), { Modules: { modules: [], cursor: 7 } }, '/Modules/cursor', 'an array of u8 or a hex string or null'],
      ['v1.resources', (n) => n.v1.resources('0x1'), { Resources: { resource: null } }, '/Resources/resource', 'an array'],
    );
  }
}

describe('an iterator over a malformed page, no validator', () => {
  it.each(cases)('%s, case %#: a malformed page rejects with ResponseShapeError', async (_name, iterate, page, path, expected) => {
    body = JSON.stringify(page);
    const node = createNodeClient({ baseUrl: server.url, retry: false });
    const err = await walk(iterate(node)).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(err).toBeInstanceOf(ClientError);
    expect(err).toMatchObject({ name: 'ResponseShapeError', code: 'RESPONSE_SHAPE_ERROR', path });
    expect((err as Error).message).toContain(`expected ${expected}`);
  });

  it('a v1 listing answered null (nothing there) ends the walk without an error', async () => {
    body = 'null';
    const node = createNodeClient({ baseUrl: server.url, retry: false });
    await expect(walk(node.v1.modules('0x1'))).resolves.toBeUndefined();
  });

  it('a v1 cursor already in hex (as live nodes send it) is passed back as it is', async () => {
    body = JSON.stringify({ Modules: { modules: [['0x1::a', { address: '0x1', name: 'a' }]], cursor: '0a0b' } });
    const node = createNodeClient({ baseUrl: server.url, retry: false });
    const before = server.requests.length;
    await walk(node.v1.modules('0x1')); // the second page repeats the cursor: the walk ends there
    expect(new URL(server.requests[before + 1]!.url, server.url).searchParams.get('start')).toBe('0a0b');
  });
});

describe('with a validator injected', () => {
  it('the validator rejects the page first: ResponseValidationError, a ClientError too', async () => {
    body = JSON.stringify({ record: null });
    const node = createNodeClient({ baseUrl: server.url, retry: false, validator: createResponseValidator() });
    const err = await walk(node.v2.transactions('0x1')).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseValidationError);
    expect(err).toBeInstanceOf(ClientError);
    expect(err).toMatchObject({ code: 'RESPONSE_VALIDATION_ERROR', operationId: 'listTransactionsV2' });
  });
});
