/**
 * `pnpm lint:packages`: what each package's tarball holds, then publint and @arethetypeswrong/cli on the
 * tarball itself (the bytes a user gets), not on the package folder.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { type Packed, type Tally, ROOT, indent, run } from './shared.ts';

/**
 * attw rule left out, for every package: `cjs-resolves-to-esm`. The packages are ESM only on purpose
 * (the README's "ESM only"): they declare `engines.node >= 20.19`, where `require()` of an ES module works
 * unflagged, and the install check (`pnpm test:install`) proves `require('@x/...')` on this Node and a
 * CommonJS TypeScript consumer under `module: nodenext`. attw flags the node16-from-CJS resolution because
 * TypeScript's `node16` mode (unlike `nodenext` since 5.8) still models `require` of ESM as an error;
 * a dual CommonJS build would double the published code for no user on a supported Node.
 * Every other rule, in every resolution mode (node10, node16 from CJS and ESM, bundler), stays on.
 */
export const ATTW_IGNORED_RULES = ['cjs-resolves-to-esm'] as const;

/** Files a tarball may hold at its top level besides dist/. */
const TOP_LEVEL = new Set(['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE']);

export async function lintPackages(packed: readonly Packed[], tally: Tally): Promise<void> {
  const attwBin = join(ROOT, 'node_modules', '.bin', 'attw');
  const versions = new Map(packed.map((p) => [p.pkg.name, p.pkg.version]));
  for (const p of packed) {
    console.log(`\n${p.pkg.name}@${p.pkg.version}  (${p.files.length} files)`);
    contents(p, versions, tally);

    // publint on the tarball; warnings count as errors (strict), suggestions are shown.
    const tarball = readFileSync(p.tarball);
    const { messages, pkg } = await publint({
      pack: { tarball: tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.byteLength) },
      strict: true,
    });
    const errors = messages.filter((m) => m.type === 'error');
    for (const m of messages.filter((m) => m.type !== 'error')) console.log(`        publint ${m.type}: ${formatMessage(m, pkg, { color: false })}`);
    tally.check('publint (strict)', errors.length === 0, errors.map((m) => formatMessage(m, pkg, { color: false })).join('\n'));

    // attw on the tarball, every entry point in every resolution mode.
    const attw = await run(attwBin, [p.tarball, '--format', 'ascii', '--no-color', '--no-emoji', '--ignore-rules', ...ATTW_IGNORED_RULES], { cwd: ROOT });
    const table = (attw.stdout + attw.stderr).trim();
    tally.check(`attw (ignoring ${ATTW_IGNORED_RULES.join(', ')})`, attw.code === 0, table);
    if (attw.code === 0) console.log(indent(summarizeAttw(table), 8));
  }
}

/** The tarball holds what a user needs and nothing of the workspace. */
function contents(p: Packed, versions: ReadonlyMap<string, string>, tally: Tally): void {
  const files = new Set(p.files);
  const m = p.manifest;
  const missing = ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE'].filter((f) => !files.has(f));
  tally.check('tarball has package.json, README.md, CHANGELOG.md, LICENSE', missing.length === 0, `missing: ${missing.join(', ')}`);

  // A bin may be a committed shim outside dist/ (it must exist when the workspace links it, before a build).
  const bins = new Set(Object.values(m.bin ?? {}).map((b) => b.replace(/^\.\//, '')));
  const stray = p.files.filter((f) => !f.startsWith('dist/') && !TOP_LEVEL.has(f) && !bins.has(f));
  tally.check('tarball holds only dist/, the bins and those files', stray.length === 0, stray.join('\n'));

  const targets = new Set<string>();
  const add = (v: string | undefined): void => {
    if (v) targets.add(v.replace(/^\.\//, ''));
  };
  add(m.main);
  add(m.types);
  for (const v of Object.values(m.bin ?? {})) add(v);
  for (const v of Object.values(m.exports ?? {})) for (const t of typeof v === 'string' ? [v] : Object.values(v)) add(t);
  const absent = [...targets].filter((t) => !files.has(t));
  tally.check(`every entry (main, types, bin, exports) is in the tarball: ${[...targets].join(', ')}`, absent.length === 0, `absent: ${absent.join(', ')}`);

  const deps = { ...m.dependencies, ...m.peerDependencies, ...m.optionalDependencies };
  const bad = Object.entries(deps).filter(([name, range]) => range.startsWith('workspace:') || (versions.has(name) && range !== versions.get(name)));
  tally.check(
    `dependencies as published: ${Object.entries(deps).map(([n, r]) => `${n}@${r}`).join(', ') || 'none'}`,
    bad.length === 0,
    `not rewritten to the workspace version: ${bad.map(([n, r]) => `${n}@${r}`).join(', ')}`,
  );
}

/** attw's ascii output, one line per entry point: `"@x/a": node10 OK; node16 (from CJS) OK (ESM); ...`. */
function summarizeAttw(table: string): string {
  const lines: string[] = [];
  for (const raw of table.split('\n')) {
    const l = raw.trim();
    if (/^"[^"]+"$/.test(l)) lines.push(`${l}:`);
    else if (/^(node10|node16|bundler)/.test(l) && lines.length) lines[lines.length - 1] += ` ${l.replace(/:\s*/, ' ').trim()};`;
  }
  return lines.join('\n');
}
