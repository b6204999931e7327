/**
 * `@x/node-client/node`: what only Node runs, kept out of the main entry so that no browser bundle
 * sees it. The undici transport, for an indexer's many concurrent calls (undici >= 7, an optional peer).
 */
export { httpUndici } from './undici.js';
export type { HttpUndiciOptions } from './undici.js';
