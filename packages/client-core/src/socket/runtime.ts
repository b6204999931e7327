/**
 * Which WebSocket implementation a socket opens: in Node the `ws` package where it is installed (it shows
 * a refused upgrade's status; Node 22's global does not), else the runtime's own (browsers, Deno, Bun,
 * Node 22+ without `ws`); `ws` is loaded on first use by a specifier no bundler follows, so that no
 * browser bundle holds it.
 */

/** What a socket reads of an event: a message's data, a close's code, an error's error. */
export type SocketEvent = { readonly data?: unknown; readonly code?: number; readonly reason?: string; readonly error?: unknown; readonly message?: string };

/**
 * The part of a WebSocket a socket uses, as the standard API and `ws` both have it: declared here, not
 * taken from the DOM's types, so that a consumer whose `lib` has no DOM compiles the declarations.
 */
export interface WebSocketLike {
  onopen: ((event: SocketEvent) => void) | null;
  onmessage: ((event: SocketEvent) => void) | null;
  onerror: ((event: SocketEvent) => void) | null;
  onclose: ((event: SocketEvent) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  /** `ws`'s own: the answer of an upgrade that failed, and the upgrade's answer. */
  on?(event: 'unexpected-response' | 'upgrade', listener: (...args: never[]) => void): unknown;
  /** `ws`'s own: drops the connection at once. */
  terminate?(): void;
}

/**
 * A WebSocket class: the runtime's global `WebSocket`, `ws`'s default export, or one of a test's.
 * The second argument carries the upgrade's headers where the class takes them (`ws`, Node's, Deno's,
 * Bun's); `maxPayload` and `handshakeTimeout` are `ws`'s.
 */
export type WebSocketConstructor = new (
  url: string,
  protocolsOrInit?: string | string[] | { headers?: Record<string, string>; maxPayload?: number; handshakeTimeout?: number },
) => WebSocketLike;

type Runtime = { WebSocket?: WebSocketConstructor; process?: { versions?: { node?: string } }; Deno?: unknown; Bun?: unknown };

const g = globalThis as Runtime;

/** True where a WebSocket's constructor takes headers (Node's, Deno's and Bun's); a browser's never does. */
export const takesHeaders = (): boolean => (g.process?.versions?.node ?? g.Deno ?? g.Bun) !== undefined;

/** `import(specifier)` of a specifier no bundler can read ahead of time. */
const load = (specifier: string): Promise<{ default?: WebSocketConstructor; WebSocket?: WebSocketConstructor }> => import(/* @vite-ignore */ specifier);
let loaded: Promise<WebSocketConstructor | undefined> | undefined;

/**
 * The WebSocket class to open. In Node, the `ws` package where it is installed: Node 22's global
 * WebSocket (undici's) hides a refused upgrade's status, so a 429's `Retry-After` and a 503 (polling
 * instead) would be lost; else the global one. Elsewhere the global one (browsers, Deno, Bun), else
 * `ws`'s, else `undefined` (neither: the caller says so). Loaded once.
 */
export function webSocketClass(): Promise<WebSocketConstructor | undefined> {
  const global = g.WebSocket;
  // Deno and Bun say they are Node too.
  if (global && (!g.process?.versions?.node || g.Deno || g.Bun)) return Promise.resolve(global);
  // The specifier is a parameter: a minifier folds a constant into `import("ws")`, which an app's bundler
  // then tries to resolve for browsers; through a parameter only Node loads `ws`, and only here.
  return (loaded ??= load('ws').then(
    (m: { default?: WebSocketConstructor; WebSocket?: WebSocketConstructor }) => m.WebSocket ?? m.default ?? global,
    () => global,
  ));
}
