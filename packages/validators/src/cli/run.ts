import { redactText, redactUrl } from '@x/client-core';
import { validateResponse, type Issue, type Profile } from '../index.js';
import { headerCursors } from './cursors.js';
import { driftActions, driftSites } from './drift.js';
import { listRecordings, readRecording, type RecordedEntry } from './entries.js';
import { matchOperation } from './match.js';
import { DEFAULT_MAX_FILE_BYTES } from './options.js';
import { render, type Format, type Result, type ResultIssue } from './report.js';
import { preview, valueAt } from './value.js';

export type RunOptions = {
  strict: boolean;
  format: Format;
  /** The reading checked against: `documented` (default) or `live`. */
  profile?: Profile;
  /** Known drift is a warning rather than a failure (always so with the live profile). */
  driftAsWarning?: boolean;
  /** Strings never shown in a value or URL (the price API key), replaced by `[REDACTED]`. */
  secrets?: readonly string[];
  /** The directory relative paths are read from (default: the process's working directory); results name them as given. */
  cwd?: string;
  /** The largest recording read, in bytes (default 256 MiB); a larger one is an error naming it. */
  maxFileBytes?: number;
};

/**
 * Validates every recorded response under `paths` and renders the results; `failed` is true when any
 * response fails or any input could not be read.
 *
 * Every body that fails the documented reading is classified: `known-drift` when it passes the live one
 * (what real nodes are observed to send; the overlay actions are named), `violation` when it fails both.
 * Against the documented reading (default) both fail the run unless `driftAsWarning`; against the live
 * reading only violations do. Each issue carries its own class too (an entry may hold both), the
 * overlay actions of known drift, and the offending value, shortened, secrets redacted.
 *
 * Within each recording, a request to a listing whose next page's start is a response header (v3's
 * `x-supra-cursor`) fails when its cursor was not given by that header of an earlier recorded response
 * of the same listing and path parameters (see `headerCursors`).
 *
 * @example
 * ```ts
 * const { output, failed } = await run(['specs/recorded'], { strict: true, format: 'text' });
 * const live = await run(['specs/recorded-live'], { strict: true, format: 'json', profile: 'live' });
 * ```
 */
export async function run(paths: readonly string[], options: RunOptions): Promise<{ output: string; failed: boolean; results: Result[] }> {
  const driftFails = (options.profile ?? 'documented') === 'documented' && !options.driftAsWarning;
  const secrets = (options.secrets ?? []).filter(Boolean);
  const hide = (text: string): string => redactText(text, secrets);
  const shownUrl = (url: string): string => hide(URL.canParse(url) ? redactUrl(url) : url);
  const results: Result[] = [];
  const { files, problems, skipped } = await listRecordings(paths, options.cwd);
  for (const p of problems) results.push({ source: p.source, outcome: 'error', message: p.problem, issues: [] });
  for (const p of skipped) results.push({ source: p.source, outcome: 'skip', message: p.problem, issues: [] });
  for (const file of files) {
    const { entries, problems: bad } = await readRecording(file, options.cwd, options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES);
    for (const p of bad) results.push({ source: p.source, outcome: 'error', message: p.problem, issues: [] });
    // Within one recording, a header cursor a request sends must come from an earlier response's header.
    const cursors = headerCursors();
    for (const e of entries) {
      const cursorProblem = cursors.check(e);
      cursors.note(e);
      const r = checkEntry(e);
      results.push(cursorProblem === undefined ? r : { ...r, outcome: 'fail', message: hide(r.message ? `${r.message}; ${cursorProblem}` : cursorProblem) });
    }
  }

  /** The verdict on one entry's body. */
  function checkEntry(e: RecordedEntry): Result {
    const route = matchOperation(e.method, e.url);
    const base = { source: e.source, method: e.method, url: shownUrl(e.url), status: e.status };
    if (!route) return { ...base, outcome: 'skip', message: 'no operation of either spec has this method and path', issues: [] };
    if (!e.body.ok) return { ...base, operationId: route.operationId, outcome: 'fail', message: e.body.problem, issues: [] };
    const body = e.body.value;
    const operationId = route.operationId;
    const check = (profile: Profile) => validateResponse(operationId, e.status, body, { strict: options.strict, allErrors: true, profile });
    const documented = check('documented');
    const op = { ...base, operationId };
    if (documented.ok) return { ...op, outcome: 'pass', issues: [] };
    const withValue = (i: Issue, cls: ResultIssue['class'], actions?: string[]): ResultIssue => {
      const v = valueAt(body, i.path);
      const shown = { path: i.path, message: i.message, keyword: i.keyword, class: cls, ...(actions ? { actions } : {}) };
      return v.found ? { ...shown, value: preview(v.value, secrets) } : { ...shown, value: preview(v.value, secrets), valueAt: v.at };
    };
    const live = check('live');
    if (live.ok) {
      // Every issue of the documented reading is explained by the overlay.
      const issues = documented.issues.map((i) => withValue(i, 'known-drift', driftActions(operationId, [i])));
      const actions = driftActions(operationId, documented.issues);
      return { ...op, outcome: driftFails ? 'fail' : 'warn', class: 'known-drift', actions, issues };
    }
    // Some part fits neither reading. An issue of the documented reading is known drift when it lies
    // at a site of the overlay where the live reading has no issue (that part takes the observed form);
    // the others, and every issue of the live reading, are violations.
    const liveIssues = live.issues;
    const drift = (i: Issue): string[] | undefined => {
      const sites = driftSites(operationId, i.path);
      if (sites.length === 0) return undefined;
      const broken = sites.some((s) => liveIssues.some((l) => l.path === s.at || l.path.startsWith(`${s.at}/`) || s.at.startsWith(`${l.path}/`)));
      return broken ? undefined : [...new Set(sites.flatMap((s) => s.actions))];
    };
    const driftIssues: ResultIssue[] = [];
    const documentedIssues = documented.issues.map((i) => {
      const actions = drift(i);
      const shown = actions ? withValue(i, 'known-drift', actions) : withValue(i, 'violation');
      if (actions) driftIssues.push(shown);
      return shown;
    });
    const issues =
      options.profile === 'live' ? byPath([...driftIssues, ...liveIssues.map((i) => withValue(i, 'violation'))]) : documentedIssues;
    const actions = driftActions(operationId, driftIssues);
    return { ...op, outcome: 'fail', class: 'violation', actions, issues };
  }
  const failed = results.some((r) => r.outcome === 'fail' || r.outcome === 'error');
  return { output: render(results, options.format), failed, results };
}

/** Issues in the order of their paths in the body (array indexes as numbers); stable for equal paths. */
function byPath(issues: ResultIssue[]): ResultIssue[] {
  const key = (p: string) => p.split('/').slice(1);
  return issues
    .map((issue, n) => ({ issue, n, k: key(issue.path) }))
    .sort((a, b) => {
      for (let i = 0; i < Math.min(a.k.length, b.k.length); i++) {
        const x = a.k[i]!;
        const y = b.k[i]!;
        if (x === y) continue;
        const nx = /^\d+$/.test(x) ? Number(x) : NaN;
        const ny = /^\d+$/.test(y) ? Number(y) : NaN;
        if (!Number.isNaN(nx) && !Number.isNaN(ny)) return nx - ny;
        return x < y ? -1 : 1;
      }
      return a.k.length - b.k.length || a.n - b.n;
    })
    .map((x) => x.issue);
}
