import type { Issue } from '../issues.js';
import { printable, safeJson } from './printable.js';

/** The verdict on one recorded entry or one unreadable input. */
export type Result = {
  readonly source: string;
  /** `warn`: known drift that does not fail the run (the live profile, or `--drift-as-warning`). */
  readonly outcome: 'pass' | 'fail' | 'warn' | 'skip' | 'error';
  /**
   * Of a body that fails the documented reading: `known-drift` when the live reading accepts it (what
   * real nodes are observed to send), `violation` when neither does.
   */
  readonly class?: 'known-drift' | 'violation';
  /** Of known drift: the ids of the overlay actions (specs/node-rpc.live-overlay.yaml) that explain it. */
  readonly actions?: readonly string[];
  readonly operationId?: string;
  readonly method?: string;
  readonly url?: string;
  readonly status?: number;
  /** Why it was skipped or could not be read. */
  readonly message?: string;
  readonly issues: readonly ResultIssue[];
};

/** One issue of a failing body: what the validator said, its class, and the value it is about. */
export type ResultIssue = Issue & {
  /**
   * `known-drift`: this part of the body takes the form live nodes are observed to send (the live
   * reading accepts it; `actions` names the overlay actions). `violation`: it fits neither reading.
   * An entry may hold both; the entry is then a `violation`.
   */
  readonly class: 'known-drift' | 'violation';
  /** Of known drift: the overlay action ids that explain it. */
  readonly actions?: readonly string[];
  /**
   * The offending value as JSON text, at most 80 characters (then ending in `...`), secret-looking
   * properties and the price API key replaced by `[REDACTED]`. Where the path points at nothing (a
   * missing property), the value above it, at `valueAt`.
   */
  readonly value: string;
  /** Where `value` was taken when the path itself points at nothing. */
  readonly valueAt?: string;
};

export type Format = 'text' | 'json' | 'junit';
export const FORMATS: readonly Format[] = ['text', 'json', 'junit'];

export function summarize(results: readonly Result[]): Record<Result['outcome'], number> {
  const counts = { pass: 0, fail: 0, warn: 0, skip: 0, error: 0 };
  for (const r of results) counts[r.outcome]++;
  return counts;
}

/** `known drift (overlay: timestamp, sender)`, `violation`, or `violation (and known drift, overlay: timestamp)`. */
function classLabel(r: Result): string {
  const overlay = `overlay: ${actionList(r.actions)}`;
  if (r.class === 'known-drift') return `known drift (${overlay})`;
  if (r.class === 'violation' && r.actions?.length) return `violation (and known drift, ${overlay})`;
  return r.class ?? '';
}

/**
 * The longest a piece of recorded text is shown in the text and JUnit reports (escaped, then cut with
 * `...`): a recording can hold a URL or a message of megabytes. The JSON report keeps every value whole.
 */
const SHOWN = { method: 32, url: 500, source: 300, message: 500, path: 300, keyword: 64, action: 64 } as const;

const actionList = (actions: readonly string[] | undefined): string =>
  (actions ?? []).map((a) => printable(a, SHOWN.action)).join(', ') || 'unnamed';

/** `known drift (overlay: sender)` or `violation`. */
function issueClass(i: ResultIssue): string {
  return i.class === 'known-drift' ? `known drift (overlay: ${actionList(i.actions)})` : 'violation';
}

/** A result's message, escaped and bounded. */
const messageOf = (r: Result, otherwise = ''): string => printable(r.message ?? otherwise, SHOWN.message);

/** An issue's pointer, escaped and bounded (`/` for the root). */
const pointer = (path: string): string => printable(path || '/', SHOWN.path);

/** One issue on one line: `/record/1/header/sender: must be string [type]; violation; value {"Move":42}`. */
function issueLine(i: ResultIssue): string {
  // The value preview is already at most 80 characters; escaping can only lengthen it fourfold.
  const shown = printable(i.value, 6 * 80);
  const value = i.valueAt === undefined ? `value ${shown}` : `absent; value at ${pointer(i.valueAt)}: ${shown}`;
  return `${pointer(i.path)}: ${printable(i.message, SHOWN.message)} [${printable(i.keyword, SHOWN.keyword)}]; ${issueClass(i)}; ${value}`;
}

/**
 * Renders results in the chosen format. Text and JUnit show every piece of recorded text escaped and
 * bounded ({@link printable}); JSON keeps it whole, with the characters a terminal acts on escaped.
 */
export function render(results: readonly Result[], format: Format): string {
  if (format === 'json') return `${safeJson(JSON.stringify({ summary: summarize(results), results }, null, 2))}\n`;
  if (format === 'junit') return junit(results);
  return text(results);
}

function label(r: Result): string {
  const what = [
    r.operationId,
    r.method === undefined ? undefined : printable(r.method, SHOWN.method),
    r.url === undefined ? undefined : printable(r.url, SHOWN.url),
  ]
    .filter(Boolean)
    .join(' ');
  return `${what}${r.status !== undefined ? ` -> ${r.status}` : ''} (${printable(r.source, SHOWN.source)})`;
}

function text(results: readonly Result[]): string {
  const lines: string[] = [];
  for (const r of results) {
    if (r.outcome === 'pass') lines.push(`PASS  ${label(r)}`);
    else if (r.outcome === 'skip') lines.push(`SKIP  ${label(r)}: ${messageOf(r)}`);
    else if (r.outcome === 'error') lines.push(`ERROR ${label(r)}: ${messageOf(r)}`);
    else {
      const cls = r.class ? `: ${classLabel(r)}` : '';
      lines.push(`${r.outcome === 'warn' ? 'WARN ' : 'FAIL '} ${label(r)}${cls}`);
      if (r.message) lines.push(`      ${messageOf(r)}`);
      for (const i of r.issues) lines.push(`      ${issueLine(i)}`);
    }
  }
  const c = summarize(results);
  const drift = results.filter((r) => r.class === 'known-drift').length;
  const violations = results.filter((r) => r.class === 'violation').length;
  lines.push(
    `x-validate: ${c.pass} passed, ${c.fail} failed, ${c.warn} warned, ${c.skip} skipped, ${c.error} unreadable` +
      ` (${drift} known drift, ${violations} violations)`,
  );
  return `${lines.join('\n')}\n`;
}

/**
 * Text as XML 1.0 character data, or an attribute value (`attribute`). Recorded text reaches here
 * through {@link printable}, so it holds no control character; the report's own line breaks are kept,
 * as `&#10;` in an attribute (where a parser would turn a raw one into a space). Whatever XML 1.0 does
 * not allow even as a reference (other C0 controls, lone surrogates, U+FFFE/U+FFFF) becomes U+FFFD.
 */
function escapeXml(s: string, attribute = true): string {
  return s.replace(
    // eslint-disable-next-line no-control-regex -- the controls XML 1.0 forbids are what it finds
    /[<>&"'\t\n\r]|[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    (ch) => {
      if (ch === '\t' || ch === '\n') return attribute ? `&#${ch.charCodeAt(0)};` : ch;
      return XML_ESCAPES[ch] ?? '\ufffd';
    },
  );
}

const XML_ESCAPES: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;', '\r': '&#13;' };

function junit(results: readonly Result[]): string {
  const c = summarize(results);
  const cases = results.map((r) => {
    const name = escapeXml(label(r));
    const cls = escapeXml(r.operationId ?? 'unmatched');
    const open = `    <testcase classname="${cls}" name="${name}">`;
    if (r.outcome === 'pass') return `    <testcase classname="${cls}" name="${name}"/>`;
    if (r.outcome === 'skip') return `${open}<skipped message="${escapeXml(messageOf(r))}"/></testcase>`;
    if (r.outcome === 'error') return `${open}<error message="${escapeXml(messageOf(r))}"/></testcase>`;
    const verdict = r.class ? classLabel(r) : undefined;
    const detail = [verdict, r.message && messageOf(r), ...r.issues.map(issueLine)].filter(Boolean).join('\n');
    const first = r.issues[0];
    const message = `${verdict ? `${verdict}: ` : ''}${first ? `${pointer(first.path)}: ${printable(first.message, SHOWN.message)}` : messageOf(r, 'failed')}`;
    // Known drift that does not fail the run stays visible as the case's system-out, not a failure.
    if (r.outcome === 'warn') return `${open}<system-out>${escapeXml(`WARNING ${message}\n${detail}`, false)}</system-out></testcase>`;
    const type = r.class ? ` type="${r.class}"` : '';
    return `${open}<failure message="${escapeXml(message)}"${type}>${escapeXml(detail, false)}</failure></testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="x-validate" tests="${results.length}" failures="${c.fail}" errors="${c.error}" skipped="${c.skip}">`,
    `  <testsuite name="x-validate" tests="${results.length}" failures="${c.fail}" errors="${c.error}" skipped="${c.skip}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
