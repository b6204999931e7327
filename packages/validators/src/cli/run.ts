import { validateResponse, type Profile } from '../index.js';
import { driftActions } from './drift.js';
import { listRecordings, readRecording } from './entries.js';
import { matchOperation } from './match.js';
import { render, type Format, type Result } from './report.js';

export type RunOptions = {
  strict: boolean;
  format: Format;
  /** The reading checked against: `documented` (default) or `live`. */
  profile?: Profile;
  /** Known drift is a warning rather than a failure (always so with the live profile). */
  driftAsWarning?: boolean;
};

/**
 * Validates every recorded response under `paths` and renders the results; `failed` is true when any
 * response fails or any input could not be read.
 *
 * Every body that fails the documented reading is classified: `known-drift` when it passes the live one
 * (what real nodes are observed to send; the overlay actions are named), `violation` when it fails both.
 * Against the documented reading (default) both fail the run unless `driftAsWarning`; against the live
 * reading only violations do.
 *
 * @example
 * ```ts
 * const { output, failed } = await run(['specs/recorded'], { strict: true, format: 'text' });
 * const live = await run(['specs/recorded-live'], { strict: true, format: 'json', profile: 'live' });
 * ```
 */
export async function run(paths: readonly string[], options: RunOptions): Promise<{ output: string; failed: boolean; results: Result[] }> {
  const driftFails = (options.profile ?? 'documented') === 'documented' && !options.driftAsWarning;
  const results: Result[] = [];
  const { files, problems } = await listRecordings(paths);
  for (const p of problems) results.push({ source: p.source, outcome: 'error', message: p.problem, issues: [] });
  for (const file of files) {
    const { entries, problems: bad } = await readRecording(file);
    for (const p of bad) results.push({ source: p.source, outcome: 'error', message: p.problem, issues: [] });
    for (const e of entries) {
      const route = matchOperation(e.method, e.url);
      const base = { source: e.source, method: e.method, url: e.url, status: e.status };
      if (!route) {
        results.push({ ...base, outcome: 'skip', message: 'no operation of either spec has this method and path', issues: [] });
        continue;
      }
      if (!e.body.ok) {
        results.push({ ...base, operationId: route.operationId, outcome: 'fail', message: e.body.problem, issues: [] });
        continue;
      }
      const body = e.body.value;
      const check = (profile: Profile) =>
        validateResponse(route.operationId, e.status, body, { strict: options.strict, allErrors: true, profile });
      const documented = check('documented');
      const op = { ...base, operationId: route.operationId };
      if (documented.ok) {
        results.push({ ...op, outcome: 'pass', issues: [] });
        continue;
      }
      const live = check('live');
      if (live.ok) {
        const actions = driftActions(route.operationId, documented.issues);
        results.push({ ...op, outcome: driftFails ? 'fail' : 'warn', class: 'known-drift', actions, issues: documented.issues });
      } else {
        const issues = options.profile === 'live' ? live.issues : documented.issues;
        results.push({ ...op, outcome: 'fail', class: 'violation', actions: [], issues });
      }
    }
  }
  const failed = results.some((r) => r.outcome === 'fail' || r.outcome === 'error');
  return { output: render(results, options.format), failed, results };
}
