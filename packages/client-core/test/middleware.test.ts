/**
 * The transport runs `raw.use()` middleware itself (it does not send through openapi-fetch's
 * `request`), so these tests hold it to openapi-fetch's own runner: the same middleware, once on
 * `node.raw.GET(...)` (openapi-fetch) and once on `node.v2.getAccount(...)` (the transport), must see
 * the same hooks with the same arguments and lead to the same request and answer.
 */
import { describe, expect, it } from 'vitest';
import type { Middleware } from 'openapi-fetch';
import { createNodeClient, NetworkError } from '@x/node-client';
import { STUB_ACCOUNTS } from '@x/testing';
import { useNodeStub } from '@x-tools/test-helpers';

const ctx = useNodeStub();
const { alice } = STUB_ACCOUNTS;
const PATH = '/rpc/v2/accounts/{address}';

type Seen = { hook: string; schemaPath: string; params: unknown; method: string; url: string; id: string; options: string[] };

/** Records every hook call, then lets `act` decide what the hook returns. */
function recording(act: Partial<Record<'onRequest' | 'onResponse' | 'onError', (p: { request: Request; response?: Response; error?: unknown }) => unknown>>) {
  const seen: Seen[] = [];
  const record = (hook: string, p: { request: Request; schemaPath: string; params: unknown; id: string; options: object }): void => {
    seen.push({ hook, schemaPath: p.schemaPath, params: p.params, method: p.request.method, url: p.request.url, id: p.id, options: Object.keys(p.options).sort() });
  };
  const middleware = {
    onRequest: (p: Parameters<NonNullable<Middleware['onRequest']>>[0]) => (record('onRequest', p), act.onRequest?.(p)),
    onResponse: (p: Parameters<NonNullable<Middleware['onResponse']>>[0]) => (record('onResponse', p), act.onResponse?.(p)),
    onError: (p: Parameters<NonNullable<Middleware['onError']>>[0]) => (record('onError', p), act.onError?.(p)),
  } as Middleware;
  return { middleware, seen };
}

/** One run through openapi-fetch and one through the transport, each with a fresh recording middleware. */
async function both(act: Parameters<typeof recording>[0], baseUrl = ctx.stub.url) {
  const runs = [];
  for (const via of ['openapi-fetch', 'transport'] as const) {
    const node = createNodeClient({ baseUrl, retry: false });
    const { middleware, seen } = recording(act);
    node.raw.use(middleware);
    const before = ctx.stub.requests.length;
    const outcome =
      via === 'openapi-fetch'
        ? await node.raw.GET(PATH, { params: { path: { address: alice } } }).then(({ data, error }) => ({ ok: error === undefined, value: data ?? error }), (e: unknown) => ({ ok: false, value: e }))
        : await node.v2.getAccount(alice).then((value) => ({ ok: true, value }), (e: unknown) => ({ ok: false, value: e }));
    runs.push({ seen, outcome, sent: ctx.stub.requests.slice(before) });
  }
  return runs as [(typeof runs)[number], (typeof runs)[number]];
}

/** Hook records without the per-request id (checked for shape only) and URLs (the same either way). */
const shape = (seen: Seen[]) => seen.map(({ id, ...rest }) => ({ ...rest, id: /^[0-9a-z]{1,9}$/.test(id) }));

describe('middleware runs as openapi-fetch runs it', () => {
  it('pass-through: the same hooks, arguments, request and answer', async () => {
    const [a, b] = await both({});
    expect(shape(b.seen)).toEqual(shape(a.seen));
    expect(b.seen.map((s) => s.hook)).toEqual(['onRequest', 'onResponse']);
    expect(b.seen[0]!.params).toEqual({ path: { address: alice } });
    expect(b.sent.map((r) => r.url)).toEqual(a.sent.map((r) => r.url));
    expect(b.outcome).toEqual(a.outcome);
  });

  it('onRequest returning a new Request: that request is sent', async () => {
    const [a, b] = await both({
      onRequest: ({ request }) => {
        const headers = new Headers(request.headers);
        headers.set('x-trace', 't-1');
        return new Request(request, { headers });
      },
    });
    expect(a.sent[0]!.headers['x-trace']).toBe('t-1');
    expect(b.sent[0]!.headers['x-trace']).toBe('t-1');
    expect(b.outcome).toEqual(a.outcome);
  });

  it('onRequest returning a Response: nothing is sent, and no other hook runs', async () => {
    const answer = { sequence_number: '7', authentication_key: '0x07' };
    const [a, b] = await both({ onRequest: () => Response.json(answer) });
    expect(a.sent).toEqual([]);
    expect(b.sent).toEqual([]);
    expect(shape(b.seen)).toEqual(shape(a.seen));
    expect(b.seen.map((s) => s.hook)).toEqual(['onRequest']);
    expect(b.outcome).toEqual({ ok: true, value: answer });
  });

  it('onResponse returning a Response: it replaces the answer', async () => {
    const [a, b] = await both({ onResponse: () => Response.json({ replaced: true }) });
    expect(a.outcome).toEqual({ ok: true, value: { replaced: true } });
    expect(b.outcome).toEqual({ ok: true, value: { replaced: true } });
  });

  it('onError returning a Response recovers a refused connection', async () => {
    const refused = 'http://127.0.0.1:9'; // the discard port: nothing listens there
    const [a, b] = await both({ onError: () => Response.json({ recovered: true }) }, refused);
    expect(shape(b.seen).map((s) => s.hook)).toEqual(shape(a.seen).map((s) => s.hook));
    expect(b.seen.map((s) => s.hook)).toEqual(['onRequest', 'onError', 'onResponse']);
    expect(b.outcome).toEqual({ ok: true, value: { recovered: true } });
  });

  it("onError returning an Error: openapi-fetch rejects with it; the client's NetworkError carries it as the cause", async () => {
    const replaced = new Error('replaced by middleware');
    const [a, b] = await both({ onError: () => replaced }, 'http://127.0.0.1:9');
    expect(a.outcome).toEqual({ ok: false, value: replaced });
    expect(b.outcome.value).toBeInstanceOf(NetworkError);
    expect((b.outcome.value as NetworkError).cause).toBe(replaced);
  });

  it.each([
    ['onRequest', { onRequest: () => 'nope' }, /onRequest: must return new Request\(\) or Response\(\)/],
    ['onResponse', { onResponse: () => 'nope' }, /onResponse: must return new Response\(\)/],
  ] as const)('%s returning something else fails the call with the same message', async (_hook, act, message) => {
    const [a, b] = await both(act);
    expect((a.outcome.value as Error).message).toMatch(message);
    expect((b.outcome.value as Error).message).toMatch(message);
  });
});
