/**
 * The size table of docs/size-budgets.md: written from what size-limit measured (`pnpm size --write`),
 * between two markers, and checked by `pnpm size`: its checks as configured, its limits and sizes within
 * 3% of today's (a table a few bytes off, or an operation behind, is still true; one a release behind is not).
 */

/** One check as `size-limit --json` reports it: bytes, and the limit in bytes where it has one. */
export interface SizeResult {
  name: string;
  size: number;
  sizeLimit?: number;
  passed?: boolean;
}

export const TABLE_START = '<!-- size-table:start (written by `pnpm size --write`; do not edit) -->';
export const TABLE_END = '<!-- size-table:end -->';

/** How far a size the table states may be from the measured one before `pnpm size` calls the table stale. */
export const TABLE_TOLERANCE = 0.03;

/**
 * Bytes as the docs write them (1 kB = 1,000 B, as size-limit counts).
 *
 * @example
 * ```ts
 * formatBytes(20_041); // '20.04 kB'
 * ```
 */
export function formatBytes(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(2)} MB`;
  if (n >= 1_000) return `${(n / 1_000).toFixed(2)} kB`;
  return `${n} B`;
}

/** The inverse of `formatBytes`, for a size read back from the table; `undefined` for anything else. */
export function parseBytes(text: string): number | undefined {
  const m = /^(-?[0-9]+(?:\.[0-9]+)?) (B|kB|MB)$/.exec(text.trim());
  if (m === null) return undefined;
  return Math.round(Number(m[1]) * { B: 1, kB: 1_000, MB: 1_000_000 }[m[2] as 'B' | 'kB' | 'MB']);
}

const HEADER = ['| check (min+gzip unless it says otherwise) | limit | size |', '|---|---:|---:|'];
const row = (r: SizeResult): string => `| \`${r.name.replaceAll('|', '\\|')}\` | ${r.sizeLimit === undefined ? '' : formatBytes(r.sizeLimit)} | ${formatBytes(r.size)} |`;

/**
 * The markdown table of `results`, between the markers.
 *
 * @example
 * ```ts
 * sizeTable([{ name: '@x/common (entry)', size: 3320 }]); // '<!-- size-table:start ... -->\n| check ... |\n...'
 * ```
 */
export function sizeTable(results: readonly SizeResult[]): string {
  return [TABLE_START, ...HEADER, ...results.map(row), TABLE_END].join('\n');
}

/** `doc` with its table replaced by the table of `results`; throws when the doc has no markers. */
export function withTable(doc: string, results: readonly SizeResult[]): string {
  const start = doc.indexOf(TABLE_START);
  const end = doc.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`the document has no size table between ${TABLE_START} and ${TABLE_END}`);
  return doc.slice(0, start) + sizeTable(results) + doc.slice(end + TABLE_END.length);
}

/**
 * What makes the table of `doc` untrue of `results`, one line each; [] when it holds: the same checks in
 * the same order, each limit and size within `TABLE_TOLERANCE` of the configured and measured ones.
 */
export function staleRows(doc: string, results: readonly SizeResult[]): string[] {
  const start = doc.indexOf(TABLE_START);
  const end = doc.indexOf(TABLE_END);
  if (start < 0 || end < start) return [`no size table between the markers`];
  const rows = doc.slice(start + TABLE_START.length, end).trim().split('\n').slice(HEADER.length);
  const problems: string[] = [];
  if (rows.length !== results.length) problems.push(`${rows.length} rows for ${results.length} checks`);
  results.forEach((r, i) => {
    const cells = (rows[i] ?? '').split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim());
    const [name, limit, size] = cells;
    const want = row(r).split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim());
    if (name !== want[0]) return problems.push(`row ${i + 1}: ${name ?? '(none)'}, where the check is ${want[0]}`);
    // A limit grows with the operations of the spec (margin in .size-limit.js): within the tolerance, it is still the one stated.
    const statedLimit = parseBytes(limit ?? '');
    const sameLimit = r.sizeLimit === undefined ? limit === '' : statedLimit !== undefined && Math.abs(statedLimit - r.sizeLimit) <= r.sizeLimit * TABLE_TOLERANCE;
    if (!sameLimit) problems.push(`${want[0]}: limit ${limit || '(none)'}, configured ${want[1] || '(none)'}`);
    const stated = parseBytes(size ?? '');
    if (stated === undefined || Math.abs(stated - r.size) > Math.abs(r.size) * TABLE_TOLERANCE) problems.push(`${want[0]}: ${size ?? '(none)'} in the table, ${formatBytes(r.size)} measured`);
    return undefined;
  });
  return problems;
}
