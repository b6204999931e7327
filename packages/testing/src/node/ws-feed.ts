/**
 * The fake node's WebSocket (`/rpc/v4/ws`) without a transport: the JSON-RPC 2.0 subscriptions
 * (`supra_subscribe ["newBlocks", {...}]` or `["newBlockHeaders"]`, `supra_unsubscribe [id]`), blocks
 * pushed as the stub's clock makes them (read through the stub's own router, so a pushed block is the
 * REST block of that height, byte for byte), and the controls a test drives it with (`stub.stream`):
 * make blocks now, pause, drop, refuse upgrades (429 with `Retry-After`, 503 disabled), garbage and
 * oversized frames. The loopback server (ws-server.ts) carries it.
 */
import type { Router, StubResponse } from '../router.ts';

/** What a connection is to the feed: a way to send a text frame and to drop the connection. */
export interface StreamPeer {
  send(text: string): void;
  close(): void;
}

/** How the feed answers an upgrade: take it, or refuse it with a status and headers. */
export type UpgradeVerdict = { accept: true } | { accept: false; status: number; headers: Record<string, string> };

/**
 * The stream's controls, as `stub.stream`: a test makes blocks, pauses and breaks the stream with them.
 *
 * @example
 * ```ts
 * const stub = await startNodeStub({ now: () => Date.UTC(2024, 10, 20) });
 * stub.stream.produce(3);              // three blocks made and pushed now
 * stub.stream.refuseNext(429, { retryAfterSeconds: 1 });
 * stub.stream.drop();                  // every connection dropped
 * ```
 */
export interface NodeStream {
  /** Makes `count` blocks now (moving the stub's clock on to the last one's time) and pushes them; answers the new latest height. */
  produce(count?: number): number;
  /** Stops pushing: blocks go on being made (REST has them), subscribers miss them, as after a stall. */
  pause(): void;
  /** Pushes again, from the next block made (the missed ones are not replayed, as on a node). */
  resume(): void;
  /** Drops every connection at once (no close frame). */
  drop(): void;
  /** Refuses the next `times` (default 1) upgrades with `status`: 429 carries `Retry-After` (default 1 s) and `X-WebSocket-Reject-Reason`. */
  refuseNext(status: number, options?: { times?: number; retryAfterSeconds?: number; reason?: string }): void;
  /** While true, every upgrade is refused with 503, as by a node whose WebSocket is disabled. */
  disabled: boolean;
  /** When set, an upgrade without `Authorization: Bearer <token>` is refused with 401. */
  token: string | undefined;
  /** Sends `text` (default: not JSON) to every connection. */
  sendGarbage(text?: string): void;
  /** Sends a frame of `bytes` bytes to every connection. */
  sendOversized(bytes: number): void;
  /** Open connections. */
  readonly connections: number;
  /** The height of the last block the feed saw made (pushed or, paused, missed). */
  readonly head: number | undefined;
}

type Subscription = { id: string; kind: 'headers' | 'blocks' | 'bare' };
const RPC_ERRORS = { parse: [-32700, 'Parse error'], request: [-32600, 'Invalid Request'], method: [-32601, 'Method not found'], params: [-32602, 'Invalid params'] } as const;

/** The feed of one stub: `route` its router, `clock` its clock, `advance(ms)` moves that clock on. */
export function createBlockFeed(route: Router, clock: () => number, advance: (ms: number) => void, tickMs = 250): NodeStream & {
  upgrade(authorization: string | undefined): UpgradeVerdict;
  connect(peer: StreamPeer): { receive(text: string): void; closed(): void };
} {
  const get = (path: string): StubResponse => route({ method: 'GET', path: path.split('?')[0] as string, query: new URLSearchParams(path.split('?')[1] ?? ''), headers: {} });
  const latest = (): number => (JSON.parse(get('/rpc/v3/block').body) as { header: { height: number } }).header.height;
  const peers = new Map<StreamPeer, Subscription[]>();
  const refusals: { status: number; headers: Record<string, string> }[] = [];
  let head: number | undefined;
  let paused = false;
  let nextId = 1;
  let timer: ReturnType<typeof setInterval> | undefined;

  /** The frames of one height, rendered once for every subscriber of a kind. */
  const push = (height: number): void => {
    const bodies = new Map<Subscription['kind'], string>();
    const body = (kind: Subscription['kind']): string => {
      let text = bodies.get(kind);
      if (text === undefined) {
        text = get(`/rpc/v4/block/height/${height}?with_finalized_transactions=${String(kind === 'blocks')}`).body;
        if (kind === 'headers') text = JSON.stringify((JSON.parse(text) as { header: unknown }).header);
        bodies.set(kind, text);
      }
      return text;
    };
    for (const [peer, subs] of peers) {
      for (const sub of subs) peer.send(`{"jsonrpc":"2.0","method":"supra_subscription","params":{"subscription":"${sub.id}","result":${body(sub.kind)}}}`);
    }
  };
  const tick = (): void => {
    const now = latest();
    if (head === undefined) head = now;
    for (let h = head + 1; h <= now; h++) if (!paused) push(h);
    head = Math.max(head, now);
  };
  const running = (): void => {
    const wanted = peers.size > 0;
    if (wanted && timer === undefined) {
      timer = setInterval(tick, tickMs);
      (timer as { unref?: () => void }).unref?.();
    } else if (!wanted && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };

  const answer = (peer: StreamPeer, subs: Subscription[], text: string): void => {
    let msg: { id?: unknown; method?: unknown; params?: unknown };
    const reply = (id: unknown, result: unknown): void => peer.send(JSON.stringify({ jsonrpc: '2.0', result, id }));
    const fail = (id: unknown, [code, message]: readonly [number, string]): void => peer.send(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: id ?? null }));
    try {
      msg = JSON.parse(text) as typeof msg;
    } catch {
      return fail(null, RPC_ERRORS.parse);
    }
    if (typeof msg !== 'object' || msg === null || typeof msg.method !== 'string') return fail(msg?.id, RPC_ERRORS.request);
    const params = Array.isArray(msg.params) ? (msg.params as unknown[]) : [];
    if (msg.method === 'supra_unsubscribe') {
      const at = subs.findIndex((s) => s.id === params[0]);
      if (at >= 0) subs.splice(at, 1);
      return reply(msg.id, at >= 0);
    }
    if (msg.method !== 'supra_subscribe') return fail(msg.id, RPC_ERRORS.method);
    const options = (params[1] ?? {}) as { includeTransactions?: unknown };
    const kind = params[0] === 'newBlockHeaders' ? 'headers' : params[0] === 'newBlocks' && typeof options === 'object' ? (options.includeTransactions === false ? 'bare' : 'blocks') : undefined;
    if (kind === undefined) return fail(msg.id, RPC_ERRORS.params);
    // Subscribers get the blocks made after this point: the head is read now. With no subscriber the head
    // may be old (it moves while someone listens), and a node sends no block made before one subscribed.
    if (head === undefined || ![...peers.values()].some((others) => others.length > 0)) head = latest();
    const id = `0x${(nextId++).toString(16).padStart(16, '0')}`;
    subs.push({ id, kind });
    reply(msg.id, id);
  };

  return {
    produce(count = 1) {
      if (head === undefined) head = latest();
      const target = Math.max(latest(), head) + count;
      // The least shift of the clock that makes `target`: blocks are 0.4 to 1.2 s apart.
      let low = 0;
      let high = 1_300 * count + 2_000;
      while (low < high) {
        const mid = Math.floor((low + high) / 2);
        advance(mid);
        const reached = latest() >= target;
        advance(-mid);
        if (reached) high = mid;
        else low = mid + 1;
      }
      advance(low);
      tick();
      return latest();
    },
    pause: () => void (paused = true),
    resume: () => {
      tick();
      paused = false;
    },
    drop() {
      for (const peer of [...peers.keys()]) peer.close();
      peers.clear();
      running();
    },
    refuseNext(status, options = {}) {
      const headers: Record<string, string> = { 'x-websocket-reject-reason': options.reason ?? (status === 429 ? 'connection limit reached' : 'refused') };
      if (status === 429 || options.retryAfterSeconds !== undefined) headers['retry-after'] = String(options.retryAfterSeconds ?? 1);
      for (let i = 0; i < (options.times ?? 1); i++) refusals.push({ status, headers });
    },
    disabled: false,
    token: undefined,
    sendGarbage(text = '{"jsonrpc":"2.0","method":"supra_subscription","params":') {
      for (const peer of peers.keys()) peer.send(text);
    },
    sendOversized(bytes) {
      const frame = `{"jsonrpc":"2.0","method":"supra_subscription","params":{"pad":"${'x'.repeat(Math.max(0, bytes - 70))}"}}`;
      for (const peer of peers.keys()) peer.send(frame);
    },
    get connections() {
      return peers.size;
    },
    get head() {
      return head;
    },
    upgrade(authorization) {
      const refusal = refusals.shift();
      if (refusal) return { accept: false, ...refusal };
      if (this.disabled) return { accept: false, status: 503, headers: {} };
      if (this.token !== undefined && authorization !== `Bearer ${this.token}`) return { accept: false, status: 401, headers: {} };
      return { accept: true };
    },
    connect(peer) {
      const subs: Subscription[] = [];
      peers.set(peer, subs);
      running();
      return {
        receive: (text) => answer(peer, subs, text),
        closed: () => {
          peers.delete(peer);
          running();
        },
      };
    },
  };
}
