/**
 * Benchmark 4: wall clock of `pnpm gen`, cold and with nothing changed, each in a child process.
 *
 * It runs in a throw-away copy of the working tree (every tracked and untracked, not ignored file, as a
 * fresh git repository, with `node_modules` a symlink to this repo's), never in the repo itself: the
 * copy starts with an empty turbo cache (`TURBO_CACHE_DIR` inside the copy) and an empty tsx cache
 * (`TMPDIR` inside the copy; tsx keeps its compile cache in the temp dir), and whatever `pnpm gen`
 * writes there cannot touch the files, or the turbo cache, of anyone working in this tree.
 *
 * - cold: empty turbo cache and empty tsx cache, then `pnpm gen` (turbo misses, runs `gen:write`:
 *   the whole generator). Repeated `coldRuns` times, each time with both caches emptied again.
 * - unchanged: `pnpm gen` again with nothing changed (turbo answers from its cache), `warmRuns` times.
 *
 * Afterwards the copy's generated files are compared with git: a cold run that changed them means the
 * working tree's generated code is stale (reported in the row's note; the repo itself is not touched).
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { median } from './harness.ts';
import type { Row } from './report.ts';

function git(cwd: string, args: string[]): string {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

/** A copy of the working tree as a fresh git repository, sharing this repo's node_modules. */
function copyTree(root: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'x-bench-gen-'));
  const files = git(root, ['ls-files', '-z', '--cached', '--others', '--exclude-standard']).split('\0').filter(Boolean);
  for (const f of files) {
    try {
      mkdirSync(dirname(join(dir, f)), { recursive: true });
      cpSync(join(root, f), join(dir, f));
    } catch (err) {
      // A tracked file deleted in the working tree is simply not copied.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  git(dir, ['init', '-q']);
  git(dir, ['add', '.']);
  git(dir, ['-c', 'user.name=bench', '-c', 'user.email=bench@localhost', '-c', 'commit.gpgsign=false', 'commit', '-q', '--no-verify', '-m', 'snapshot']);
  return dir;
}

/** Wall clock of one `pnpm gen` in `cwd`, in ms; throws with its output when it fails. */
function timeGen(cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn('pnpm', ['gen'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - t0;
      if (code === 0) resolve(ms);
      else reject(new Error(`pnpm gen exited with ${String(code)}:\n${output}`));
    });
  });
}

const runs = (n: number): string => (n === 1 ? '1 run' : `${n} runs`);

export async function benchGen(root: string, coldRuns: number, warmRuns: number): Promise<Row> {
  const dir = copyTree(root);
  try {
    const cache = join(dir, '.turbo', 'cache');
    const tmp = join(dir, '.tmp');
    // Variables of a surrounding pnpm or turbo run are not passed on: they would change what `pnpm gen` does.
    const inherited = Object.entries(process.env).filter(([k]) => !k.startsWith('npm_') && !k.startsWith('TURBO_'));
    const env: NodeJS.ProcessEnv = {
      ...Object.fromEntries(inherited),
      TURBO_CACHE_DIR: cache,
      TURBO_TELEMETRY_DISABLED: '1',
      DO_NOT_TRACK: '1',
      TMPDIR: tmp,
      TEMP: tmp,
      TMP: tmp,
    };
    const cold: number[] = [];
    const warm: number[] = [];
    for (let i = 0; i < coldRuns; i++) {
      rmSync(join(dir, '.turbo'), { recursive: true, force: true });
      rmSync(tmp, { recursive: true, force: true });
      mkdirSync(tmp, { recursive: true });
      cold.push(await timeGen(dir, env));
    }
    for (let i = 0; i < warmRuns; i++) warm.push(await timeGen(dir, env));
    const changed = git(dir, ['status', '--porcelain', '--', 'packages']).trim();
    const s = (ms: number): number => ms / 1000;
    return {
      id: 'gen',
      group: '4',
      name: `pnpm gen, cold (${runs(coldRuns)}) then nothing changed (${runs(warmRuns)})`,
      a: { label: 'cold', value: s(median(cold)), unit: 's' },
      b: { label: 'unchanged', value: s(median(warm)), unit: 's' },
      ratio: median(warm) / median(cold),
      ratioMeaning: 'unchanged / cold (information; the targets are the two times)',
      target: { op: '<=', a: 10, b: 2, on: 'values' },
      note: changed
        ? `the cold run changed generated files (the working tree's generated code is stale): ${changed.replace(/\n/g, '; ')}`
        : 'generated files unchanged',
      samples: { coldMs: cold, unchangedMs: warm },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
