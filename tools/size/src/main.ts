/**
 * `pnpm size`: what each package costs a bundle. Every package's entry (`export *`) and the one-function
 * imports users start with are bundled from the built dist/ with esbuild (ESM, browser platform, minified,
 * tree-shaken, openapi-fetch external: it is the clients' one dependency and shared with the user's own
 * openapi-fetch), then gzipped (zlib level 9). Prints a table, writes `.size/report.json`, and exits 1 when
 * a budget is exceeded. Budgets are min+gzip bytes with 1 kB = 1,000 bytes.
 *
 *   pnpm size            # table; exit 1 over budget
 *   pnpm size --json     # the JSON report on stdout as well
 *
 * Builds nothing: run `pnpm build` first (`pnpm check` does).
 */
import { mkdirSync, writeFileSync, existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync, constants } from 'node:zlib';
import { build, type Metafile } from 'esbuild';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** A built module of a package: `dist('node-client')` is its main entry, `dist('node-client', 'query')` its `/query` subpath. */
const dist = (dir: string, module = 'index'): string => join(ROOT, 'packages', dir, 'dist', `${module}.js`);
/** `@x/node-client`, or `@x/node-client/query` for a subpath's module. */
const specifier = (dir: string, module = 'index'): string => (module === 'index' ? `@x/${dir}` : `@x/${dir}/${module}`);

/** What is measured: label, the package folder, the module source bundled, and the budget if any. */
interface Case {
  readonly label: string;
  readonly dir: string;
  readonly source: string;
  /** min+gzip bytes allowed; undefined: reported only. */
  readonly budget?: number;
  /** Packages left out of the bundle (default: openapi-fetch). */
  readonly external?: readonly string[];
}

const entry = (dir: string, budget?: number, module?: string): Case => ({
  label: `${specifier(dir, module)} (entry)`,
  dir,
  source: `export * from ${JSON.stringify(dist(dir, module))};`,
  budget,
});
const one = (dir: string, name: string, budget?: number, module?: string): Case => ({
  label: `{ ${name} } from ${specifier(dir, module)}`,
  dir,
  source: `export { ${name} } from ${JSON.stringify(dist(dir, module))};`,
  budget,
});

const TESTING_BROWSER = 'browser: @x/testing (in-memory stubs), dependencies included';

// Budgets: node-client entry <= 6 kB (issue 7), price-client entry <= 6 kB (issue 16: the key protections
// are worth their bytes), both without openapi-fetch; one validator <= 4 kB. The subpaths: node queries
// <= 4 kB, price queries <= 1 kB (without openapi-fetch; nothing of TanStack), one Standard Schema <= 6 kB.
const CASES: readonly Case[] = [
  entry('node-types'),
  entry('price-types'),
  entry('common'),
  entry('node-client', 6_000),
  one('node-client', 'createNodeClient'),
  entry('price-client', 6_000),
  entry('client-core'),
  one('price-client', 'createPriceClient'),
  entry('validators'),
  one('validators', 'validateTransactionOutput', 4_000),
  // What a browser app ships (issue 17): everything bundled, openapi-fetch included; reported only.
  { label: 'browser: @x/node-client, openapi-fetch included', dir: 'node-client', source: `export * from ${JSON.stringify(dist('node-client'))};`, external: [] },
  { label: 'browser: @x/price-client, openapi-fetch included', dir: 'price-client', source: `export * from ${JSON.stringify(dist('price-client'))};`, external: [] },
  {
    label: 'browser: both clients, openapi-fetch included',
    dir: 'node-client',
    source: `export * from ${JSON.stringify(dist('node-client'))}; export { createPriceClient } from ${JSON.stringify(dist('price-client'))};`,
    external: [],
  },
  // @x/testing's browser build (the in-memory stubs and their seeded chain), its dependencies included; reported only.
  {
    label: TESTING_BROWSER,
    dir: 'testing',
    source: `export * from ${JSON.stringify(join(ROOT, 'packages', 'testing', 'dist', 'browser.js'))};`,
    external: [],
  },
  // The subpaths, each its own entry: TanStack Query options (types only of TanStack, nothing at run time),
  // Standard Schemas (one schema <= 6 kB: its compiled validator and JSON Schema), MSW handlers.
  entry('node-client', 4_000, 'query'),
  one('node-client', 'createNodeQueries', undefined, 'query'),
  entry('price-client', 1_000, 'query'),
  one('validators', 'AccountData', 6_000, 'standard'),
  entry('validators', undefined, 'standard'),
  // The stubs as MSW handlers, @noble/hashes included, msw (a peer dependency) external; reported only.
  { label: '@x/testing/msw (entry), msw external', dir: 'testing', source: `export * from ${JSON.stringify(dist('testing', 'msw'))};`, external: ['msw'] },
];

/**
 * The main entries carry none of the subpaths: no module of theirs (`query*`, `standard*`, `msw*`, a file or
 * folder of dist/) and nothing of the subpaths' peers (`@tanstack/*`, `msw`, `@mswjs/*`), bundled or external.
 */
const ISOLATED: readonly string[] = ['@x/node-client (entry)', '@x/price-client (entry)', '@x/validators (entry)', TESTING_BROWSER];
const SUBPATH_MODULE = /(?:^|\/)packages\/[^/]+\/dist\/(?:[^/]+\/)*(?:query|standard|msw)[^/]*(?:\/|$)/;
const SUBPATH_PACKAGE = /(?:^|\/)node_modules\/(?:@tanstack\/|msw\/|@mswjs\/)|^(?:@tanstack\/|msw$|msw\/|@mswjs\/)/;

/**
 * Cases known to be over their budget, each with the size it may not grow past: they are reported as
 * OVER but do not fail the run, so a regression still fails while the budget stays the stated one.
 * Remove an entry to enforce its budget strictly.
 */
const KNOWN_OVER: Readonly<Record<string, { readonly ceiling: number; readonly note: string }>> = {
  '@x/node-client (entry)': {
    // 5,847 B after issue 16's runtime work; 6,166 B once the iterators check what they read of a page
    // (ResponseShapeError with its JSON-pointer path, instead of a TypeError from inside the walk), 6,209 B
    // with a body reader that decodes once (a Blob joins in fewer bytes but cost ~15% of throughput);
    // 6,379 B once an error body `{ message }` (what nodes send, issue 18) ends HttpError's message,
    // one line, `Some("...")` unwrapped, URLs redacted (~170 B, in @x/client-core's errors).
    // Issues 24-25 (10,338 B): paging read from the generated table (readPage, the table itself: ~1.5 kB),
    // walks that fetch predicted pages concurrently, pipeline cursor pages and go newest first, cancelling
    // what is in flight (~1.2 kB), and the router for several nodes: fallback, resting nodes, Retry-After
    // and Supra's message, hedging, a per-node token bucket, onAttempt (~2.2 kB, in @x/client-core's
    // routing, nodes and rate-limit modules, which only the node client bundles).
    // Issues 27 and 29 (10,830 B): HttpError's retryAfterMs and redacted headers (~150 B), and the usual
    // mistakes answered before any request: baseUrl hints, error causes, a body cut short (~215 B).
    // Issue 33 (13,136 B): a hostile node. Redirects followed by the client, within the origin only, and
    // a browser's hidden ones found without the caller's headers (~700 B); bodies counted against
    // maxResponseBytes and ResponseTooLargeError (~350 B); walks that stop on repeated items and runs of
    // empty windows, with cursor and item digests and a Brent checkpoint (~700 B); headers and lone surrogates refused where
    // first seen, linear error-text readers (~450 B). Issue 34 (a client paid for as it is used) is where
    // this entry shrinks. Its first part (13,263 B) hands the service's knowledge to the transport as
    // configuration (API paths from the operation table, the Some("...") reader, the affinity of a walk's
    // pages as a parameter): ~130 B. Issue 37's input hints (13,322 B): http:// for a loopback base URL.
    ceiling: 13_350,
    note: 'over since issue 16 (page checks, error bodies); issues 24-25: paging, walks, several nodes; 27/29: HttpError fields, input hints; 33: hostile node',
  },
  '@x/price-client (entry)': {
    // 5,946 B before issue 16 (budget then 5,000 B). Issue 16 set the budget to 6,000 B; the entry then
    // grew to 7,060 B: the transport's own send path with its runner of openapi-fetch's middleware
    // protocol (~1 kB minified; sending through openapi-fetch's request() instead cost ~15% of loopback
    // throughput), withRetry and the cancellable body reader, and issue 17's browser handling (keyed
    // redirects a browser hides, the CORS hint of a NetworkError); 7,292 B with issue 18's error body
    // message in HttpError (shared with the node client). The ceiling stops any further growth.
    // Issue 25: 7,506 B. The router is a module the price client does not bundle; what remains is the
    // transport's hand-off to a router and its refusal of routing options (~200 B) and `baseUrls`.
    // Issues 27 and 29 (7,991 B): HttpError's retryAfterMs and redacted headers, a malformed history body
    // as a ResponseShapeError with its pointer (~150 B), and the usual mistakes: baseUrl hints, error
    // causes, start/end in seconds and resolutions in milliseconds refused with the value meant (~335 B).
    // Issue 33 (9,165 B): redirects within the origin only, for every request (the price client's own
    // keyed-redirect code moved into client-core's, shared), maxResponseBytes, header checks and the
    // path-decoding key scope (~1.1 kB). Issue 34 (9,436 B): historyRange fetches through client-core's
    // Flights, the one ordered-fetching engine it shares with the node client's walks (~250 B over its
    // own loop of pending promises); what is left of 34 is where this entry shrinks. Issue 37's input
    // hints (9,618 B): a pair in an exchange's spelling and a date string answered with what was meant.
    ceiling: 9_650,
    note: 'over since issues 16-17 (send path, browser redirects; 18: error body; 25: router hand-off; 27/29: HttpError fields, unit checks; 33: hostile node)',
  },
  '{ validateTransactionOutput } from @x/validators': {
    // 3,846 B before issue 18. The live reading (issue 18) makes every function serve both readings:
    // the observed forms of an event's guid and sequence number, the liveForms code and closestForm,
    // the facade's folding of its errors: 5,607 B. Issue 19 inlines every non-recursive reference in the
    // first-error variants, so a valid page allocates nothing (71 kB before) and validates at the
    // hand-written floor: 6,265 B. Each live node then remembers which form fitted last and tries it
    // first (6,416 B): the live profile, the clients' default, on a documented page went from 207 kB
    // allocated and 0.171 x JSON.parse to 71 B and 0.109. Meeting 4,000 B again means dropping one of these.
    ceiling: 6_450,
    note: 'over since issues 18-19 (both readings in one function; references inlined for zero allocation; the form that fitted last tried first)',
  },
};

const EXTERNAL = ['openapi-fetch'];

/**
 * The example app (examples/explorer, issue 28) as Vite builds it for production (`pnpm build` builds it):
 * reported only. Vite's chunks are minified already (raw = min); each file is its own request, so each is
 * gzipped alone and the sizes are summed. "first load" is the entry chunk with its static imports and CSS,
 * what a page pointed at real services (?node=, ?price=) loads; the in-memory stubs of @x/testing (and
 * @x/validators, for ?validate=) are chunks the page imports only when it uses them.
 */
const APP_DIST = join(ROOT, 'examples', 'explorer', 'dist');
const APP_MANIFEST = join(APP_DIST, '.vite', 'manifest.json');

interface ManifestChunk {
  readonly file: string;
  readonly isEntry?: boolean;
  readonly imports?: readonly string[];
  readonly dynamicImports?: readonly string[];
  readonly css?: readonly string[];
}

function appRows(): Row[] {
  const manifest = JSON.parse(readFileSync(APP_MANIFEST, 'utf8')) as Record<string, ManifestChunk>;
  /** The entry's files, and those of the dynamic imports whose manifest key `dynamic` accepts. */
  const filesOf = (dynamic: (key: string) => boolean): string[] => {
    const files = new Set<string>();
    const seen = new Set<string>();
    const visit = (key: string): void => {
      const chunk = manifest[key];
      if (!chunk || seen.has(key)) return;
      seen.add(key);
      files.add(chunk.file);
      for (const css of chunk.css ?? []) files.add(css);
      for (const k of [...(chunk.imports ?? []), ...(chunk.dynamicImports ?? []).filter(dynamic)]) visit(k);
    };
    for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);
    return [...files];
  };
  const row = (label: string, files: string[]): Row => {
    const parts = files.map((file) => {
      const code = readFileSync(join(APP_DIST, file));
      return { file: `examples/explorer/dist/${file}`, bytes: code.byteLength, gzip: gzipSync(code, { level: constants.Z_BEST_COMPRESSION }).byteLength };
    });
    const bytes = parts.reduce((sum, p) => sum + p.bytes, 0);
    const contributors = parts.map(({ file, bytes }) => ({ file, bytes })).sort((a, b) => b.bytes - a.bytes);
    return { label, raw: bytes, min: bytes, gzip: parts.reduce((sum, p) => sum + p.gzip, 0), budget: null, verdict: '-', contributors };
  };
  return [
    row('app: examples/explorer (Vite build, JS + CSS), first load', filesOf(() => false)),
    row('app: examples/explorer, with the in-memory stubs (no ?node=/?price=)', filesOf((key) => key.includes('packages/testing/'))),
  ];
}

/** Bytes of every file under `path` (a file or a folder). */
function bytesUnder(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.size;
  return readdirSync(path).reduce((sum, name) => sum + bytesUnder(join(path, name)), 0);
}

/** A published package's files as npm installs them: package.json plus its `files` entries. */
function publishedBytes(dir: string): number {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { files?: string[] };
  return bytesUnder(join(dir, 'package.json')) + (manifest.files ?? []).reduce((sum, f) => sum + bytesUnder(join(dir, f)), 0);
}

/** Where `name` resolves from `dir`, as Node looks it up: `node_modules/<name>` in `dir` and each folder above. */
function resolvePackage(dir: string, name: string): string {
  for (let d = dir; ; d = dirname(d)) {
    const candidate = join(d, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(d) === d) throw new Error(`size: cannot find ${name} from ${dir}`);
  }
}

/**
 * A workspace package's install size: its own published files, and every package it pulls in, each
 * once (workspace packages by their published files, registry packages whole), dependencies of
 * dependencies included.
 */
function installSize(name: string): { total: number; parts: Array<[string, number]> } {
  const parts: Array<[string, number]> = [];
  const seen = new Set<string>();
  const visit = (pkgName: string, dir: string): void => {
    if (seen.has(pkgName)) return;
    seen.add(pkgName);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    parts.push([pkgName, pkgName.startsWith('@x/') ? publishedBytes(dir) : bytesUnder(dir)]);
    for (const dep of Object.keys(manifest.dependencies ?? {})) visit(dep, resolvePackage(dir, dep));
  };
  visit(`@x/${name}`, join(ROOT, 'packages', name));
  return { total: parts.reduce((sum, [, b]) => sum + b, 0), parts };
}

interface Row {
  label: string;
  raw: number;
  min: number;
  gzip: number;
  budget: number | null;
  verdict: 'ok' | 'OVER' | 'OVER (known)' | '-';
  /** Largest inputs of the minified bundle, bytes in output. */
  contributors: { file: string; bytes: number }[];
  /** For the main entries ({@link ISOLATED}): what of the subpaths their bundle holds or imports (none expected). */
  leaks?: string[];
}

async function bundle(c: Case, minify: boolean): Promise<{ code: Uint8Array; metafile: Metafile }> {
  const result = await build({
    stdin: { contents: c.source, resolveDir: join(ROOT, 'packages', c.dir), sourcefile: `${c.dir}-size-entry.js`, loader: 'js' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify,
    treeShaking: true,
    legalComments: 'none',
    external: [...(c.external ?? EXTERNAL)],
    metafile: true,
    // The built dist/ as users get it: not the workspace tsconfig's `paths`, which point at src/.
    tsconfigRaw: {},
    logLevel: 'silent',
  });
  const out = result.outputFiles[0];
  if (!out) throw new Error(`esbuild produced nothing for ${c.label}`);
  return { code: out.contents, metafile: result.metafile };
}

function contributors(metafile: Metafile): Row['contributors'] {
  const output = Object.values(metafile.outputs)[0];
  return Object.entries(output?.inputs ?? {})
    .map(([file, v]) => ({ file: file.replace(/^.*?packages\//, 'packages/'), bytes: v.bytesInOutput }))
    .filter((x) => x.bytes > 0)
    .sort((a, b) => b.bytes - a.bytes);
}

/** Inputs of a bundle (every module esbuild loaded) and the externals they import, that belong to the subpaths. */
function subpathLeaks(metafile: Metafile): string[] {
  const found = new Set<string>();
  for (const [file, input] of Object.entries(metafile.inputs)) {
    if (SUBPATH_MODULE.test(file) || SUBPATH_PACKAGE.test(file)) found.add(file.replace(/^.*?packages\//, 'packages/'));
    for (const imp of input.imports) if (imp.external && SUBPATH_PACKAGE.test(imp.path)) found.add(`${imp.path} (external, imported by ${file})`);
  }
  return [...found].sort();
}

async function measure(c: Case): Promise<Row> {
  const [raw, min] = await Promise.all([bundle(c, false), bundle(c, true)]);
  // An empty bundle (types-only package) costs nothing; gzip's own 20-byte frame is not counted.
  const gzip = min.code.byteLength === 0 ? 0 : gzipSync(min.code, { level: constants.Z_BEST_COMPRESSION }).byteLength;
  const known = KNOWN_OVER[c.label];
  let verdict: Row['verdict'] = '-';
  if (c.budget !== undefined) {
    if (gzip <= c.budget) verdict = 'ok';
    else if (known && gzip <= known.ceiling) verdict = 'OVER (known)';
    else verdict = 'OVER';
  }
  const row: Row = { label: c.label, raw: raw.code.byteLength, min: min.code.byteLength, gzip, budget: c.budget ?? null, verdict, contributors: contributors(min.metafile) };
  if (ISOLATED.includes(c.label)) row.leaks = [...new Set([...subpathLeaks(raw.metafile), ...subpathLeaks(min.metafile)])].sort();
  return row;
}

const { values } = parseArgs({ options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
if (values.help) {
  console.log('Usage: pnpm size [--json]   (after pnpm build)');
  process.exit(0);
}
for (const c of CASES) {
  // The built modules a case bundles: the quoted paths of its source.
  for (const file of [...c.source.matchAll(/"([^"]+\.js)"/g)].map((m) => m[1]!)) {
    if (!existsSync(file)) {
      console.error(`${file.replace(ROOT, '')} is missing: run \`pnpm build\` first`);
      process.exit(1);
    }
  }
}
for (const label of ISOLATED) if (!CASES.some((c) => c.label === label)) throw new Error(`size: no case ${label} to check for subpath modules`);
if (!existsSync(APP_MANIFEST)) {
  console.error(`${APP_MANIFEST.replace(ROOT, '')} is missing: run \`pnpm build\` first (it builds the example app)`);
  process.exit(1);
}

const rows = [...(await Promise.all(CASES.map(measure))), ...appRows()];
const fmt = (n: number | null): string => (n === null ? '-' : n.toLocaleString('en-US'));
const header = ['bundle (esm, minified, openapi-fetch external)', 'raw B', 'min B', 'min+gzip B', 'budget B', 'verdict'];
const table = [header, ...rows.map((r) => [r.label, fmt(r.raw), fmt(r.min), fmt(r.gzip), fmt(r.budget), r.verdict])];
const widths = header.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
for (const [i, row] of table.entries()) {
  console.log(row.map((cell, j) => (j === 0 ? cell.padEnd(widths[j]!) : cell.padStart(widths[j]!))).join('  '));
  if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
}

const over = rows.filter((r) => r.verdict.startsWith('OVER'));
for (const r of over) {
  const known = KNOWN_OVER[r.label];
  console.log(`\n${r.label}: ${fmt(r.gzip)} B min+gzip, budget ${fmt(r.budget)} B (${fmt(r.gzip - r.budget!)} B over)${known ? `; known, ceiling ${fmt(known.ceiling)} B: ${known.note}` : ''}`);
  console.log('  largest contributors (minified bytes in the bundle):');
  for (const c of r.contributors.slice(0, 10)) console.log(`  ${fmt(c.bytes).padStart(8)}  ${c.file}`);
}

mkdirSync(join(ROOT, '.size'), { recursive: true });
const report = { node: process.versions.node, gzipLevel: 9, external: EXTERNAL, rows };
writeFileSync(join(ROOT, '.size', 'report.json'), JSON.stringify(report, null, 2) + '\n');
if (values.json) console.log(JSON.stringify(report, null, 2));

// Install size of @x/testing (issue 20): what npm puts on disk for it alone, its dependencies included.
const installed = installSize('testing');
console.log(`\ninstall size of @x/testing: ${fmt(installed.total)} B (${installed.parts.map(([n, b]) => `${n} ${fmt(b)} B`).join(', ')})`);
writeFileSync(join(ROOT, '.size', 'install.json'), JSON.stringify(installed, null, 2) + '\n');

// The main entries carry nothing of the subpaths (their modules, TanStack, MSW).
const leaking = rows.filter((r) => r.leaks?.length);
if (leaking.length) {
  for (const r of leaking) console.error(`\n${r.label} includes the subpaths' code:\n  ${r.leaks!.join('\n  ')}`);
} else {
  console.log(`\nsubpaths isolated: ${ISOLATED.join(', ')}: no query*, standard* or msw* module, nothing of @tanstack/* or msw`);
}

const failed = rows.filter((r) => r.verdict === 'OVER');
if (failed.length || leaking.length) {
  if (failed.length) console.error(`\nsize: over budget: ${failed.map((r) => r.label).join(', ')}`);
  if (leaking.length) console.error(`\nsize: subpath code in the main entries: ${leaking.map((r) => r.label).join(', ')}`);
  process.exitCode = 1;
} else {
  console.log(`\nsize: ${rows.filter((r) => r.verdict === 'ok').length} budgets met${over.length ? `, ${over.length} known over (see above)` : ''}; report in .size/report.json`);
}
