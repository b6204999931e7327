/**
 * The README code-block checker: every ```ts block of every README.md (the root's, each package's, each
 * example's) and of docs/*.md is either
 *
 * - **tested verbatim**: its text appears, as it is, in a test file (packages/* /test, tools/* /test(s),
 *   examples/* /test(s)); the test runs or type-checks it, or
 * - **type-checked** here: written to a virtual `.mts` file beside its README, with the public names it
 *   uses but does not import added as imports (and the few values the READMEs use as context, such as a
 *   `node` client, declared), then checked by tsc in strict mode with `exactOptionalPropertyTypes`,
 *   `noUncheckedIndexedAccess` and the repository's other options, or
 * - **opted out** with a marker on the line before its fence, giving a reason:
 *   `<!-- readme-check: skip: <reason> -->`. The checker lists every opted-out block.
 *
 * Run by `pnpm test` (tools/readme-check/test) and `tsx tools/readme-check/src/main.ts` (a report).
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** One ```ts block of a Markdown file. */
export interface Block {
  /** the Markdown file, relative to the repository root */
  readonly file: string;
  /** 1-based line of the opening fence */
  readonly line: number;
  /** the block's text, its fence's indentation removed, ending in a newline */
  readonly code: string;
  /** the reason given by a `<!-- readme-check: skip: reason -->` marker, if any */
  readonly skip?: string;
}

const SKIP = /<!--\s*readme-check:\s*skip:\s*(.+?)\s*-->\s*$/;

/** Every README.md the checker reads: the root's, packages/*, examples/*, tools/*, and docs/*.md. */
export function markdownFiles(root = ROOT): string[] {
  const files = ['README.md', 'CONTRIBUTING.md'];
  for (const dir of ['packages', 'examples', 'tools']) {
    if (!existsSync(join(root, dir))) continue;
    for (const d of readdirSync(join(root, dir)).sort()) files.push(`${dir}/${d}/README.md`);
  }
  if (existsSync(join(root, 'docs'))) {
    for (const f of readdirSync(join(root, 'docs')).sort()) if (f.endsWith('.md')) files.push(`docs/${f}`);
  }
  return files.filter((f) => existsSync(join(root, f)));
}

/** The ```ts blocks of one Markdown file (fences may be indented, e.g. inside a list item). */
export function extractBlocks(file: string, markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^( *)```(ts|typescript)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && lines[j] !== `${indent}\`\`\``; j++) body.push(lines[j]!.startsWith(indent) ? lines[j]!.slice(indent.length) : lines[j]!);
    if (j === lines.length) throw new Error(`${file}:${i + 1}: a \`\`\`ts block is never closed`);
    const skip = i > 0 ? SKIP.exec(lines[i - 1]!)?.[1] : undefined;
    blocks.push({ file, line: i + 1, code: body.join('\n') + '\n', ...(skip === undefined ? {} : { skip }) });
    i = j;
  }
  return blocks;
}

function walk(dir: string, out: string[]): string[] {
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir)) {
    if (e === 'node_modules' || e === 'dist' || e.startsWith('.')) continue;
    const p = join(dir, e);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.(ts|tsx|mts|cts|js|mjs)$/.test(e)) out.push(p);
  }
  return out;
}

/** The test files a block may be found in, with their text (template literals' escapes undone). */
export function testFiles(root = ROOT): { file: string; text: string }[] {
  const files: string[] = [];
  for (const dir of ['packages', 'tools', 'examples']) {
    if (!existsSync(join(root, dir))) continue;
    for (const d of readdirSync(join(root, dir))) for (const t of ['test', 'tests']) walk(join(root, dir, d, t), files);
  }
  return files
    .filter((f) => !f.includes(`${join('tools', 'readme-check')}`))
    .map((f) => ({ file: relative(root, f), text: readFileSync(f, 'utf8').replace(/\\`/g, '`').replace(/\\\$\{/g, '${') }));
}

/** The public entry points whose exports a block may use without importing them, in order of preference. */
export const ENTRIES = [
  '@x/node-client',
  '@x/price-client',
  '@x/validators',
  '@x/testing',
  '@x/node-types',
  '@x/price-types',
  '@x/client-core',
  '@x/common',
  '@x/node-client/shapes',
  '@x/node-client/query',
  '@x/price-client/query',
  '@x/validators/standard',
  '@x/testing/msw',
] as const;

/**
 * Values the READMEs use as context of a block that continues an earlier one (a client made above, an
 * address). Declared only when a block uses the name without declaring it.
 */
export const CONTEXT: Record<string, string> = {
  node: "declare const node: import('@x/node-client').NodeClient;",
  prices: "declare const prices: import('@x/price-client').PriceClient;",
  address: 'declare const address: string;',
  cursor: 'declare const cursor: string;',
  signal: 'declare const signal: AbortSignal;',
  apiKey: 'declare const apiKey: string;',
  body: 'declare const body: unknown;',
  query: "declare const query: import('@x/price-client').HistoryParameters;",
  stub: "declare const stub: import('@x/testing').NodeStubHandle;",
  priceStub: "declare const priceStub: import('@x/testing').PriceStubHandle;",
};

/** Names of test runners and browser libraries a block may use as its test file would import them. */
export const THIRD_PARTY: Record<string, string> = {
  describe: 'vitest',
  it: 'vitest',
  test: 'vitest',
  expect: 'vitest',
  beforeAll: 'vitest',
  afterAll: 'vitest',
  beforeEach: 'vitest',
  afterEach: 'vitest',
  vi: 'vitest',
  setupWorker: 'msw/browser',
  setupServer: 'msw/node',
};

export interface Verdict {
  readonly block: Block;
  readonly kind: 'verbatim' | 'typechecked' | 'skipped' | 'failed';
  /** the test file (verbatim), the reason (skipped), the added imports (typechecked), or the errors (failed) */
  readonly detail: string;
}

/** Compiler options of the check: the repository's (tsconfig.dev.json, paths to the sources) made stricter. */
function compilerOptions(root: string): ts.CompilerOptions {
  const configPath = join(root, 'tsconfig.dev.json');
  const read = ts.readConfigFile(configPath, (p) => ts.sys.readFile(p));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, root, undefined, configPath);
  return {
    ...parsed.options,
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    noEmit: true,
    moduleDetection: ts.ModuleDetectionKind.Force,
    skipLibCheck: true,
    types: ['node'],
  };
}

/** A virtual file beside the README, so that module resolution finds that package's node_modules. */
const virtualName = (b: Block, i: number): string => join(ROOT, dirname(b.file), `__readme_block_${b.line}_${i}.mts`);

/**
 * Compiler hosts that share one cache of the files on disk: the check builds up to three programs (the
 * blocks as written, the public exports, the blocks with their imports added) over the same libraries and
 * package sources, and parsing those again for each program cost a quarter of the check's time. A parsed
 * file does not depend on the program that reads it (language services share them alike), only on the
 * options, which are the same for all three. The blocks' own files are not cached: their text changes.
 */
function sharedHost(options: ts.CompilerOptions): () => ts.CompilerHost {
  const parsed = new Map<string, ts.SourceFile | undefined>();
  return () => {
    const host = ts.createCompilerHost(options, true);
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
      if (shouldCreate || !parsed.has(fileName)) parsed.set(fileName, read(fileName, languageVersion, onError, shouldCreate));
      return parsed.get(fileName);
    };
    return host;
  };
}

/** Type-checks the blocks, each as a module of its own; returns each block's errors (empty when it passes). */
export function typecheck(blocks: readonly Block[], root = ROOT): { errors: string[]; imports: string[] }[] {
  const options = compilerOptions(root);
  const names = blocks.map((b, i) => virtualName(b, i));
  const preludes = blocks.map(() => '');
  const imports: string[][] = blocks.map(() => []);
  const hostOf = sharedHost(options);

  const compile = (): ts.Program => {
    const host = hostOf();
    const texts = new Map(names.map((n, i) => [n, preludes[i]! + blocks[i]!.code]));
    const getSourceFile = host.getSourceFile.bind(host);
    const fileExists = host.fileExists.bind(host);
    const readFile = host.readFile.bind(host);
    host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
      const text = texts.get(fileName);
      return text === undefined ? getSourceFile(fileName, languageVersion, onError, shouldCreate) : ts.createSourceFile(fileName, text, languageVersion, true);
    };
    host.fileExists = (f) => texts.has(f) || fileExists(f);
    host.readFile = (f) => texts.get(f) ?? readFile(f);
    return ts.createProgram({ rootNames: names, options, host });
  };

  // Pass 1: which names does each block use without declaring or importing them?
  let program = compile();
  const missing = names.map((n) => {
    const sf = program.getSourceFile(n)!;
    const found = new Set<string>();
    for (const d of program.getSemanticDiagnostics(sf)) {
      if (![2304, 2552, 2503, 18004].includes(d.code)) continue;
      const m = /(?:Cannot find (?:name|namespace)|No value exists in scope for the shorthand property) '([^']+)'/.exec(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      if (m) found.add(m[1]!);
    }
    return found;
  });

  // The public exports of each entry point: name -> [entry, is it a value].
  const exported = new Map<string, { entry: string; value: boolean }>();
  if (missing.some((s) => s.size > 0)) {
    const probeName = join(root, 'tools', 'readme-check', '__probe.mts');
    const probe = ENTRIES.map((e, i) => `import * as m${i} from '${e}';\nexport { m${i} };`).join('\n');
    const host = hostOf();
    const getSourceFile = host.getSourceFile.bind(host);
    const fileExists = host.fileExists.bind(host);
    host.getSourceFile = (f, v, e, s) => (f === probeName ? ts.createSourceFile(f, probe, v, true) : getSourceFile(f, v, e, s));
    host.fileExists = (f) => f === probeName || fileExists(f);
    const p = ts.createProgram({ rootNames: [probeName], options, host });
    const checker = p.getTypeChecker();
    const sf = p.getSourceFile(probeName)!;
    sf.statements.forEach((st, idx) => {
      if (!ts.isImportDeclaration(st)) return;
      const entry = ENTRIES[idx / 2]!;
      const ns = st.importClause?.namedBindings;
      if (!ns || !ts.isNamespaceImport(ns)) return;
      const sym = checker.getSymbolAtLocation(ns.name);
      const mod = sym && checker.getAliasedSymbol(sym);
      if (!mod) return;
      for (const s of checker.getExportsOfModule(mod)) {
        if (exported.has(s.name)) continue;
        const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
        exported.set(s.name, { entry, value: (target.flags & ts.SymbolFlags.Value) !== 0 });
      }
    });
  }

  // Pass 2: with the imports and context added.
  let again = false;
  missing.forEach((set, i) => {
    const byEntry = new Map<string, string[]>();
    const lines: string[] = [];
    for (const name of [...set].sort()) {
      const e = exported.get(name);
      if (e) byEntry.set(e.entry, [...(byEntry.get(e.entry) ?? []), e.value ? name : `type ${name}`]);
      else if (THIRD_PARTY[name] !== undefined) byEntry.set(THIRD_PARTY[name], [...(byEntry.get(THIRD_PARTY[name]) ?? []), name]);
      else if (CONTEXT[name] !== undefined) lines.push(CONTEXT[name]);
    }
    for (const [entry, list] of byEntry) {
      lines.unshift(`import { ${list.join(', ')} } from '${entry}';`);
      imports[i]!.push(...list.map((n) => `${n.replace(/^type /, '')} from ${entry}`));
    }
    for (const name of set) if (CONTEXT[name] !== undefined) imports[i]!.push(`${name} (context)`);
    if (lines.length) {
      // One line, so the block's line numbers stay as they are in the README (shifted by one).
      preludes[i] = lines.join(' ') + '\n';
      again = true;
    }
  });
  if (again) program = compile();

  return names.map((n, i) => {
    const sf = program.getSourceFile(n)!;
    const offset = preludes[i] === '' ? 0 : 1;
    const errors = [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)].map((d) => {
      const at = d.start === undefined ? 0 : sf.getLineAndCharacterOfPosition(d.start).line - offset;
      const b = blocks[i]!;
      return `${b.file}:${b.line + 1 + at}: TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n  ')}`;
    });
    return { errors, imports: imports[i]! };
  });
}

const HEADER = /^\/\/ (\S+\.(?:ts|tsx|mts|js))( \(excerpt\))?\n/;

/**
 * A block whose first line names its test file (`// tests/loopback.spec.ts`, or with `(excerpt)`): the
 * rest must be in that file (the file whose path ends with the name) verbatim; an excerpt's parts,
 * separated by blank lines, each verbatim.
 */
function fromFile(block: Block, tests: readonly { file: string; text: string }[]): Verdict | undefined {
  const m = HEADER.exec(block.code);
  if (!m) return undefined;
  const name = m[1]!;
  const rest = block.code.slice(m[0].length).trimEnd();
  const file = tests.find((t) => t.file === name || t.file.endsWith(`/${name}`));
  if (!file) return undefined; // a file of the user's project (`// account.test.ts`): checked as any block
  const parts = m[2] ? rest.split(/\n\s*\n/) : [rest];
  const absent = parts.filter((p) => !file.text.includes(p.trim()));
  return absent.length
    ? { block, kind: 'failed', detail: `not verbatim in ${file.file}:\n${absent.join('\n...\n')}` }
    : { block, kind: 'verbatim', detail: `${file.file}${m[2] ? ' (excerpt)' : ''}` };
}

/** Checks every block of every Markdown file the checker reads. */
export function checkAll(root = ROOT): Verdict[] {
  const blocks = markdownFiles(root).flatMap((f) => extractBlocks(f, readFileSync(join(root, f), 'utf8')));
  const tests = testFiles(root);
  const verdicts: (Verdict | undefined)[] = blocks.map((block) => {
    if (block.skip !== undefined) return { block, kind: 'skipped', detail: block.skip };
    const named = fromFile(block, tests);
    if (named) return named;
    const hit = tests.find((t) => t.text.includes(block.code.trimEnd()));
    return hit ? { block, kind: 'verbatim', detail: hit.file } : undefined;
  });
  const rest = blocks.filter((_, i) => verdicts[i] === undefined);
  const results = typecheck(rest, root);
  let k = 0;
  return verdicts.map((v, i) => {
    if (v) return v;
    const r = results[k++]!;
    return r.errors.length
      ? { block: blocks[i]!, kind: 'failed', detail: r.errors.join('\n') }
      : { block: blocks[i]!, kind: 'typechecked', detail: r.imports.length ? `with ${r.imports.join(', ')}` : 'as it is' };
  });
}

/** A report of the verdicts: counts, every opted-out block with its reason, every failure. */
export function report(verdicts: readonly Verdict[]): string {
  const count = (k: Verdict['kind']): number => verdicts.filter((v) => v.kind === k).length;
  const out = [
    `README code blocks: ${verdicts.length} (tested verbatim ${count('verbatim')}, type-checked ${count('typechecked')}, opted out ${count('skipped')}, failing ${count('failed')})`,
  ];
  for (const v of verdicts) {
    const where = `${v.block.file}:${v.block.line}`;
    if (v.kind === 'skipped') out.push(`  opted out  ${where}: ${v.detail}`);
    if (v.kind === 'failed') out.push(`  FAIL       ${where}\n${v.detail.replace(/^/gm, '             ')}`);
  }
  return out.join('\n');
}

/** The repository's URL, from the `repository` field of the published packages (all the same). */
export function repositoryUrl(root = ROOT): string {
  const urls = new Set<string>();
  for (const d of readdirSync(join(root, 'packages'))) {
    const path = join(root, 'packages', d, 'package.json');
    if (!existsSync(path)) continue;
    const m = JSON.parse(readFileSync(path, 'utf8')) as { private?: boolean; repository?: { url?: string } | string };
    if (m.private) continue;
    const url = typeof m.repository === 'string' ? m.repository : m.repository?.url;
    if (url) urls.add(url.replace(/^git\+/, '').replace(/\.git$/, ''));
  }
  if (urls.size !== 1) throw new Error(`the packages' repository fields disagree or are missing: ${[...urls].join(', ') || 'none'}`);
  return [...urls][0]!;
}

/**
 * Problems with the links of the Markdown files: a package README (shown on npm, where relative links
 * break) may link only with absolute URLs or anchors; no file links outside the repository (`../shared/`);
 * a relative link, or an absolute one into this repository (`<repo>/blob|tree/main/<path>`), names a
 * path that exists.
 */
export function checkLinks(root = ROOT): string[] {
  const repo = repositoryUrl(root);
  const problems: string[] = [];
  for (const file of markdownFiles(root)) {
    const text = readFileSync(join(root, file), 'utf8').replace(/^( *)```[\s\S]*?^\1```/gm, '');
    const published = file.startsWith('packages/');
    if (text.includes('../shared/')) problems.push(`${file}: mentions ../shared/, which is outside the repository`);
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!;
      if (target.startsWith('#') || target.startsWith('mailto:')) continue;
      if (/^https?:\/\//.test(target)) {
        if (!target.startsWith(repo)) {
          // Another repository of the same owner is a sign of a stale or mistyped repository URL.
          if (target.startsWith(`${repo.split('/').slice(0, 4).join('/')}/`)) problems.push(`${file}: ${target} is not under the repository URL of package.json, ${repo}`);
          continue;
        }
        const path = /^\/(?:blob|tree)\/main\/([^#?]*)/.exec(target.slice(repo.length))?.[1];
        if (path !== undefined && !existsSync(join(root, path))) problems.push(`${file}: ${target} names ${path}, which does not exist`);
        continue;
      }
      if (published) {
        problems.push(`${file}: relative link ${target} (breaks on npm; use ${repo}/blob/main/...)`);
        continue;
      }
      const path = join(root, dirname(file), target.replace(/[#?].*$/, ''));
      if (relative(root, path).startsWith('..')) problems.push(`${file}: ${target} leads outside the repository`);
      else if (!existsSync(path)) problems.push(`${file}: ${target} does not exist`);
    }
  }
  return problems;
}
