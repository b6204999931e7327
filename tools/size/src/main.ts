/**
 * `pnpm size`: size-limit over the built dist/ (the checks and limits of .size-limit.js), once; then the
 * size table of docs/size-budgets.md, which states what it measured:
 *
 *   pnpm size           # exit 1 when a check is over its limit, or the docs' table is stale
 *   pnpm size --write   # the same, after rewriting the docs' table from this run
 *   pnpm size --json    # size-limit's JSON (exact bytes), nothing else
 *
 * The table is stale when a check or a limit differs, or a size is more than 3% off (TABLE_TOLERANCE):
 * a change of a few bytes, an operation added to a spec, leaves it true.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { formatBytes, staleRows, withTable, type SizeResult } from './table.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const DOC = join(ROOT, 'docs', 'size-budgets.md');
const { values } = parseArgs({ options: { write: { type: 'boolean' }, json: { type: 'boolean' } } });

const run = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'size-limit', 'bin.js'), '--json'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
let results: SizeResult[] | { error: string };
try {
  results = JSON.parse(run.stdout) as SizeResult[] | { error: string };
} catch {
  console.error(`size: size-limit printed no JSON (exit ${run.status}):\n${run.stdout}${run.stderr}`);
  process.exit(1);
}
if (!Array.isArray(results)) {
  console.error(`size: ${results.error}${run.stderr ? `\n${run.stderr}` : ''}`);
  process.exit(1);
}
if (values.json) {
  console.log(JSON.stringify(results, null, 2));
  process.exit(run.status ?? 1);
}

const width = Math.max(...results.map((r) => r.name.length));
for (const r of results) {
  const over = r.passed === false;
  console.log(`  ${r.name.padEnd(width)}  ${formatBytes(r.size).padStart(9)}${r.sizeLimit === undefined ? '' : `  limit ${formatBytes(r.sizeLimit)}`}${over ? '  OVER' : ''}`);
}
const over = results.filter((r) => r.passed === false);
let failed = over.length > 0;
if (failed) console.error(`\nsize: over the limit: ${over.map((r) => r.name).join('; ')} (the limits and why: docs/size-budgets.md)`);

const doc = readFileSync(DOC, 'utf8');
if (values.write) {
  const next = withTable(doc, results);
  if (next !== doc) writeFileSync(DOC, next);
  console.log(`\nsize: ${next === doc ? 'the table of docs/size-budgets.md was up to date' : 'rewrote the table of docs/size-budgets.md'}`);
} else {
  const stale = staleRows(doc, results);
  if (stale.length > 0) {
    console.error(`\nsize: the table of docs/size-budgets.md is stale; run \`pnpm size --write\` and commit it:\n  ${stale.join('\n  ')}`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
