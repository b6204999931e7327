/**
 * Where a stub listens and what listening gives, apart from the `node:http` server itself: the public
 * types import these, so a user's type check needs no Node types (`@types/node`) to read them.
 */

/** Where a server listens. */
export interface ListenOptions {
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Loopback host: '127.0.0.1' (default), '::1' or 'localhost'. */
  host?: string;
}

export interface Listening {
  /** Base URL, e.g. `http://127.0.0.1:41234` (no trailing slash). */
  readonly url: string;
  readonly port: number;
  /** Stops listening and destroys every open socket, pending slow responses included. */
  close(): Promise<void>;
}
