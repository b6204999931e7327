import type { Issue } from '../issues.js';
import { liveSites } from '../generated/live-sites.js';

/** Whether a JSON pointer lies at or under a site pattern (`*` matches one array index). */
function under(path: string, pattern: string): boolean {
  const p = path.split('/');
  const q = pattern.split('/');
  if (p.length < q.length) return false;
  return q.every((seg, i) => (seg === '*' ? /^\d+$/.test(p[i]!) : seg === p[i]));
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
export function driftActions(operationId: string, issues: readonly Issue[]): string[] {
  const sites = Object.prototype.hasOwnProperty.call(liveSites, operationId) ? liveSites[operationId]! : [];
  const ids = new Set<string>();
  for (const issue of issues) for (const [pattern, actions] of sites) if (under(issue.path, pattern)) actions.forEach((a) => ids.add(a));
  return [...ids];
}
