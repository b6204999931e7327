import type { Issue } from '../issues.js';
import { liveSites } from '../generated/live-sites.js';

/** One place of a body where the live reading accepts another form: the JSON pointer and its overlay action ids. */
export type DriftSite = { readonly at: string; readonly actions: readonly string[] };

/** The prefix of `path` a site pattern matches (`*` matches one array index), or undefined. */
function siteOf(path: string, pattern: string): string | undefined {
  const p = path.split('/');
  const q = pattern.split('/');
  if (p.length < q.length) return undefined;
  return q.every((seg, i) => (seg === '*' ? /^\d+$/.test(p[i]!) : seg === p[i])) ? p.slice(0, q.length).join('/') : undefined;
}

/**
 * The sites of the live reading at or above a JSON pointer of an operation's body: where the overlay
 * (specs/node-rpc.live-overlay.yaml) lets that part take the observed form, with the action ids.
 *
 * @example
 * ```ts
 * driftSites('listTransactionsV2', '/record/0/header/sender');
 * // [{ at: '/record/0/header/sender', actions: ['sender'] }]
 * ```
 */
export function driftSites(operationId: string, path: string): DriftSite[] {
  const sites = Object.prototype.hasOwnProperty.call(liveSites, operationId) ? liveSites[operationId]! : [];
  const found: DriftSite[] = [];
  for (const [pattern, actions] of sites) {
    const at = siteOf(path, pattern);
    if (at !== undefined) found.push({ at, actions });
  }
  return found;
}

/**
 * The overlay action ids (specs/node-rpc.live-overlay.yaml) that explain a body's documented-reading
 * issues: the actions of every site of the live reading at or above an issue's path, in overlay order
 * of first appearance.
 *
 * @example
 * ```ts
 * driftActions('listTransactionsV2', [{ path: '/record/0/header/sender', message: 'must be string', keyword: 'type' }]);
 * // ['sender']
 * ```
 */
export function driftActions(operationId: string, issues: readonly Pick<Issue, 'path'>[]): string[] {
  const ids = new Set<string>();
  for (const issue of issues) for (const site of driftSites(operationId, issue.path)) site.actions.forEach((a) => ids.add(a));
  return [...ids];
}
