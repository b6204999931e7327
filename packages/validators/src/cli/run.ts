import { validateResponse } from '../index.js';
import { listRecordings, readRecording } from './entries.js';
import { matchOperation } from './match.js';
import { render, type Format, type Result } from './report.js';

/**
 * Validates every recorded response under `paths` and renders the results; `failed` is true when any
 * response fails or any input could not be read.
 *
 * @example
 * ```ts
 * const { output, failed } = await run(['specs/recorded'], { strict: true, format: 'text' });
 * ```
 */
export async function run(paths: readonly string[], options: { strict: boolean; format: Format }): Promise<{ output: string; failed: boolean; results: Result[] }> {
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
      const verdict = validateResponse(route.operationId, e.status, e.body.value, { strict: options.strict, allErrors: true });
      results.push(
        verdict.ok
          ? { ...base, operationId: route.operationId, outcome: 'pass', issues: [] }
          : { ...base, operationId: route.operationId, outcome: 'fail', issues: verdict.issues },
      );
    }
  }
  const failed = results.some((r) => r.outcome === 'fail' || r.outcome === 'error');
  return { output: render(results, options.format), failed, results };
}
