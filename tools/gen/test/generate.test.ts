/**
 * The generator's output: focused snapshots of what a reviewer reads when the generator changes (a
 * union's type, one operation's entry, one action; the committed files themselves are guarded by
 * `pnpm gen --check`, so they are not copied here whole), the list of files it writes, what follows the
 * spec read from it (one alias per schema, one table entry per operation: an operation or a schema added
 * to a spec changes no snapshot), the "Do not edit" header, and the `--check` semantics
 * (`staleFiles`, and the CLI: in-process through runGen, and once as a child process). Determinism is
 * `pnpm gen --check` on a clean clone: a fresh process writes byte for byte what another one committed.
 *
 * Update snapshots after an intended generator change with `npx vitest run tools/gen -u`, and review the
 * diff of `__snapshots__/` like the diff of the generated code.
 */
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { format } from 'node:util';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runGen } from '../src/command.ts';
import { generate } from '../src/generate.ts';
import { GENERATED_DIRS, header, staleFiles, writeFiles, type FileSet } from '../src/files.ts';
import { loadSpecs, resolveRef, ROOT } from '../src/specs.ts';

/** The lines of `file` from the first that matches `from` to the first after it that matches `to`, both included. */
function excerpt(content: string, from: RegExp, to: RegExp): string {
  const lines = content.split('\n');
  const start = lines.findIndex((l) => from.test(l));
  const end = lines.findIndex((l, i) => i >= start && to.test(l));
  expect(start, `${from} in the generated file`).toBeGreaterThanOrEqual(0);
  expect(end, `${to} after ${from}`).toBeGreaterThanOrEqual(start);
  return lines.slice(start, end + 1).join('\n');
}

/** Focused snapshots: what a reviewer reads when a spec changes, and nothing `gen --check` already guards whole. */
const FOCUSED: [label: string, path: string, pick: (content: string) => string][] = [
  ['node-types: TransactionOutput, an exclusive union', 'packages/node-types/src/generated/node-rpc.ts', (c) => excerpt(c, /^\s+TransactionOutput: /, /^\s+};$/)],
  ['common: listTransactionsV2 in the node operation table', 'packages/common/src/generated/node-rpc.ts', (c) => excerpt(c, /^export const listTransactionsV2 = \{/, /^\} as const;$/)],
  ['node-client: the getResourceV2 action, typed by its resource type', 'packages/node-client/src/generated/actions.ts', (c) => excerpt(c, /^export function getResourceV2/, /^\}$/)],
  ['node-client: the v2 action table', 'packages/node-client/src/generated/actions.ts', (c) => excerpt(c, /^export const v2Actions = \{/, /^\} as const;$/)],
  ['price-types: Candle', 'packages/price-types/src/generated/price-history.ts', (c) => excerpt(c, /^\s+Candle: \{/, /^\s+};$/)],
  ['common: getHistory in the price operation table', 'packages/common/src/generated/price-history.ts', (c) => excerpt(c, /^export const getHistory = \{/, /^\} as const;$/)],
];

const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

let files: FileSet;
// Generating every file compiles every validator: seconds alone, more beside a type check (test:add-operation runs both at once).
beforeAll(async () => {
  files = await generate();
}, 120_000);

describe('generate()', () => {
  it.each(FOCUSED)('%s', (_label, path, pick) => {
    const content = files.get(path);
    expect(content, `${path} is generated`).toBeTypeOf('string');
    expect(pick(content!)).toMatchSnapshot();
  });

  // By path: what a file holds follows the spec, and `pnpm gen --check` holds the committed files to it.
  it('writes the files listed here', () => {
    expect([...files.keys()]).toMatchSnapshot();
  });

  it('node-types: one alias per schema of the node spec, in its order', () => {
    const aliases = files.get('packages/node-types/src/generated/node-rpc.ts')!.split('\n').filter((l) => /^export type \w+ = components/.test(l)).map((l) => l.split(' ')[2]);
    expect(aliases).toEqual(Object.keys(loadSpecs().node.doc.components.schemas));
  });

  it('common: the node operation table has one entry per operation of the node spec, in its order, each its own export', () => {
    const table = files.get('packages/common/src/generated/node-rpc.ts')!;
    const ids = Object.values(loadSpecs().node.doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(excerpt(table, /^export const nodeRpcOperations/, /^\} = \{/).split('\n').slice(1, -1)).toEqual(ids.map((id) => `  readonly ${id}: typeof ${id};`));
    for (const id of ids) expect(table).toContain(`export const ${id} = {`);
  });

  it('node-client: the actions and their version tables import no walk code, only its types (node.vN loads the walks on first use)', () => {
    const actions = files.get('packages/node-client/src/generated/actions.ts')!;
    const imports = actions.split('\n').filter((l) => /^import .* from '(\.\.\/walk(-range)?|\.\/walks)\.js';$/.test(l));
    expect(imports.length).toBeGreaterThan(0);
    for (const line of imports) expect(line, line).toMatch(/^import type /);
    // Every walk of every version's table is reached through lazyWalk.
    const walks = files.get('packages/node-client/src/generated/walks.ts')!;
    const names = [...walks.matchAll(/^export function (walk\w+)\(/gm)].map((m) => m[1]!);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(actions).toContain(`lazyWalk<typeof ${name}>((w) => w.${name})`);
  });

  it('node-client: a listing reads its page metadata (pageInfo) exactly where its 200 declares x-supra-oldest-block or x-supra-chain-id', () => {
    const actions = files.get('packages/node-client/src/generated/readings.ts')!;
    const { doc } = loadSpecs().node;
    const read: Record<string, boolean> = {};
    const declared: Record<string, boolean> = {};
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item)) {
        if (!(op as Record<string, unknown>)['x-pagination']) continue;
        const ok = resolveRef<{ headers?: Record<string, unknown> }>(doc, op.responses!['200'] as { $ref: string });
        declared[op.operationId] = ['x-supra-oldest-block', 'x-supra-chain-id'].some((h) => h in (ok.headers ?? {}));
        read[op.operationId] = new RegExp(`answering\\('${op.operationId}', op\\.${op.operationId}, (listingPage|headerPage)\\)`).test(actions);
      }
    }
    expect(read).toEqual(declared);
    // v1 declares neither (and is sent as its table entry); v2 declares the chain id.
    expect([declared.listTransactionsV1, declared.listTransactionsV2]).toEqual([false, true]);
  });

  it('generates each file once: no two generated files have the same content (one home per fact)', () => {
    const byContent = new Map<string, string[]>();
    for (const [path, content] of files) byContent.set(sha256(content), [...(byContent.get(sha256(content)) ?? []), path]);
    expect([...byContent.values()].filter((paths) => paths.length > 1)).toEqual([]);
  });

  it('returns its files sorted by path, all inside the generated folders', () => {
    const paths = [...files.keys()];
    expect(paths).toEqual([...paths].sort());
    for (const path of paths) expect(GENERATED_DIRS.some((dir) => path.startsWith(`${dir}/`)), path).toBe(true);
  });

  it('starts every file with the "generated ... Do not edit" header naming sources that exist', () => {
    const [prefix, suffix] = header('\u0000').split('\u0000') as [string, string];
    expect(prefix).toMatch(/generated/);
    expect(suffix).toMatch(/Do not edit/);
    for (const [path, content] of files) {
      const firstLine = content.slice(0, content.indexOf('\n') + 1);
      expect(firstLine.startsWith(prefix) && firstLine.endsWith(suffix), `${path} starts with the header: ${firstLine}`).toBe(true);
      const sources = firstLine.slice(prefix.length, firstLine.length - suffix.length).split(/\s*(?:,|\band\b)\s*/).filter(Boolean);
      expect(sources.length, path).toBeGreaterThan(0);
      for (const source of sources) expect(existsSync(join(ROOT, source)), `${path}: source ${source} exists`).toBe(true);
    }
  });

  it('writes no runtime copies: the clients import the shared runtime from @x/client-core', () => {
    expect([...files.keys()].filter((p) => p.includes('/runtime/') || p.startsWith('packages/client-core/'))).toEqual([]);
  });
});

describe('staleFiles (the semantics of `pnpm gen --check`)', () => {
  let tmp: string;
  const some = 'packages/node-types/src/generated/node-rpc.ts';

  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'gen-stale-'));
    writeFiles(tmp, files);
  });
  afterEach(() => {
    rmSync(tmp, { recursive: true, force: true });
  });

  it('finds nothing in an up-to-date tree', () => {
    for (const [path, content] of files) expect(readFileSync(join(tmp, path), 'utf8')).toBe(content);
    expect(staleFiles(tmp, files)).toEqual([]);
  });

  it('names a modified file', () => {
    writeFileSync(join(tmp, some), `${files.get(some)}// hand edit\n`);
    expect(staleFiles(tmp, files)).toEqual([some]);
  });

  it('names a missing file', () => {
    const path = 'packages/common/src/generated/price-history.ts';
    unlinkSync(join(tmp, path));
    expect(staleFiles(tmp, files)).toEqual([path]);
  });

  it('names an extra file in a generated folder, also in a subfolder, but nothing outside them', () => {
    writeFileSync(join(tmp, 'packages/node-types/src/generated/old.ts'), 'export {};\n');
    mkdirSync(join(tmp, 'packages/node-client/src/generated/runtime'), { recursive: true });
    cpSync(join(tmp, some), join(tmp, 'packages/node-client/src/generated/runtime/gone.ts'));
    writeFileSync(join(tmp, 'packages/node-types/src/index.ts'), 'export {};\n');
    expect(staleFiles(tmp, files)).toEqual([
      'packages/node-client/src/generated/runtime/gone.ts (not generated any more)',
      'packages/node-types/src/generated/old.ts (not generated any more)',
    ]);
  });

  it('names all of them at once, sorted, and writeFiles repairs the tree', () => {
    const missing = 'packages/common/src/generated/node-rpc.ts';
    writeFileSync(join(tmp, some), 'changed\n');
    unlinkSync(join(tmp, missing));
    writeFileSync(join(tmp, 'packages/node-client/src/generated/operations.ts'), '\n');
    const stale = [missing, 'packages/node-client/src/generated/operations.ts (not generated any more)', some];
    expect(staleFiles(tmp, files)).toEqual(stale);
    expect(writeFiles(tmp, files)).toEqual(stale);
    expect(staleFiles(tmp, files)).toEqual([]);
    expect(existsSync(join(tmp, 'packages/node-client/src/generated/operations.ts'))).toBe(false);
  });
});

describe('the CLI', () => {
  /** `pnpm gen` in-process: runGen, which the command line runs, with what it prints collected. */
  async function gen(argv: string[], root?: string): Promise<{ status: number; stdout: string; stderr: string }> {
    const out = { stdout: '', stderr: '' };
    const output = { log: (...data: unknown[]) => (out.stdout += `${format(...data)}\n`), error: (...data: unknown[]) => (out.stderr += `${format(...data)}\n`) };
    return { status: await runGen(argv, output, root), ...out };
  }

  // `pnpm gen --check` on the repository itself (exit 0) is a step of `pnpm check`, not repeated here.

  // The command line has no root flag (it generates into the repository it lives in); runGen takes the
  // tree, so the failure path runs on a temporary one, the specs and the generated files: the real
  // packages/ are never touched.
  it('exits 1 and names the file when a generated file is stale (run on a temporary tree)', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'gen-cli-'));
    try {
      cpSync(join(ROOT, 'specs'), join(tmp, 'specs'), { recursive: true });
      writeFiles(tmp, files);
      const path = 'packages/common/src/generated/node-rpc.ts';
      writeFileSync(join(tmp, path), `${readFileSync(join(tmp, path), 'utf8')}// hand edit\n`);

      const r = await gen(['--check'], tmp);
      expect(r.status, r.stderr).toBe(1);
      expect(r.stderr).toContain('Generated code is stale');
      expect(r.stderr).toContain(path);
      expect(r.stderr).not.toContain('packages/node-types/src/generated/node-rpc.ts');
      expect(r.stdout).toBe('');
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 120_000);

  // The one spawned run: the command line itself, through tsx as `pnpm gen` runs it, so that its
  // arguments, output and exit status are the process's own. --help, as it loads no generator: the
  // generator's paths are the in-process tests above.
  it('--help prints the usage and exits 0 (the command line, spawned)', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'tools/gen/src/cli.ts', '--help'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000, env: { ...process.env, NO_COLOR: '1' } });
    expect(r.stderr, 'stderr').toBe('');
    expect(r.stdout).toMatch(/^Usage: pnpm gen \[--check \| --write\]\n/);
    expect(r.stdout).toContain('--check    exit 1 and name the stale files');
    expect(r.status).toBe(0);
  }, 120_000);
});
