/**
 * What the package checks share: the list of published packages, running a command, and packing every
 * package with `pnpm pack` (which rewrites `workspace:*` to the real version and runs `prepack`), once
 * per build: the checks of one `pnpm check` share the tarballs.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** A published package of the workspace, as its package.json describes it. */
export interface WorkspacePackage {
  /** `@x/node-client` */
  readonly name: string;
  /** `node-client` (its folder under packages/) */
  readonly dir: string;
  readonly path: string;
  readonly version: string;
  readonly manifest: Manifest;
}

/** The parts of a package.json the checks read. */
export interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  main?: string;
  types?: string;
  bin?: Record<string, string>;
  exports?: Record<string, string | Record<string, string>>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  optionalDependencies?: Record<string, string>;
  files?: string[];
}

/** The optional peer dependencies of a package (`peerDependenciesMeta[name].optional`), with their ranges. */
export function optionalPeers(manifest: Manifest): [name: string, range: string][] {
  return Object.entries(manifest.peerDependencies ?? {}).filter(([name]) => manifest.peerDependenciesMeta?.[name]?.optional === true);
}

/** Every non-private package under packages/, in a stable order. */
export function workspacePackages(): WorkspacePackage[] {
  const base = join(ROOT, 'packages');
  return readdirSync(base)
    .sort()
    .filter((dir) => existsSync(join(base, dir, 'package.json')))
    .map((dir) => {
      const manifest = JSON.parse(readFileSync(join(base, dir, 'package.json'), 'utf8')) as Manifest;
      return { name: manifest.name, dir, path: join(base, dir), version: manifest.version, manifest };
    })
    .filter((p) => !p.manifest.private);
}

/** Result of a command that ran to its end (failing or not). */
export interface RunResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command without a shell and collects its output; never throws for a non-zero exit. */
export function run(cmd: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(
      cmd,
      args,
      { cwd: options.cwd, env: options.env ?? process.env, maxBuffer: 64 * 1024 * 1024, timeout: options.timeoutMs ?? 300_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) || (error && code !== 0 ? error.message : '') });
      },
    );
  });
}

/** Like {@link run}, but throws with the command's output when it fails. */
export async function runOk(cmd: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<RunResult> {
  const r = await run(cmd, args, options);
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(' ')} (in ${options.cwd}) exited ${r.code}\n${r.stdout}${r.stderr}`);
  return r;
}

/** A packed package: its tarball and the paths it holds (relative to `package/`). */
export interface Packed {
  readonly pkg: WorkspacePackage;
  readonly tarball: string;
  readonly files: readonly string[];
  /** package.json as published (workspace: ranges rewritten). */
  readonly manifest: Manifest;
}

/**
 * Where tarballs are kept between the checks of one run (lint:packages, test:install, test:newcomer,
 * release:dry-run), each named by the hash of what it was packed from.
 */
const PACK_CACHE = join(ROOT, 'node_modules', '.cache', 'x-pack');

/**
 * The hash of everything `pnpm pack` makes a package's tarball from: its package.json, every path its
 * `files` names (dist/, bin/, README.md, CHANGELOG.md), the LICENSE its prepack copies from the root,
 * and the version of every workspace package (pnpm writes them over its `workspace:*` ranges) and of
 * pnpm itself. Equal hashes, equal tarballs: a tarball is packed again whenever one of those changed.
 */
function packHash(pkg: WorkspacePackage, versions: string): string {
  const hash = createHash('sha256').update(versions);
  const add = (path: string): void => {
    if (!existsSync(path)) return;
    if (statSync(path).isDirectory()) {
      for (const e of readdirSync(path, { recursive: true, withFileTypes: true }).filter((x) => x.isFile()).map((x) => join(x.parentPath, x.name)).sort()) add(e);
      return;
    }
    hash.update(`${relative(pkg.path, path)}\0`).update(readFileSync(path)).update('\0');
  };
  for (const f of ['package.json', ...(pkg.manifest.files ?? [])]) add(join(pkg.path, f));
  add(join(ROOT, 'LICENSE'));
  return hash.digest('hex').slice(0, 16);
}

/**
 * One packer of a package at a time: pnpm check starts the pack steps side by side, and the second waits
 * for the first's tarball (then copied from the cache) rather than packing the same package at once
 * (its prepack rewrites the package's LICENSE while the other's pnpm pack may be reading it). A lock
 * left by a check that was killed is taken after two minutes.
 */
async function lockPackage(dir: string): Promise<() => void> {
  const lock = join(PACK_CACHE, `${dir}.lock`);
  for (;;) {
    try {
      mkdirSync(lock);
      return () => rmSync(lock, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 120_000) rmSync(lock, { recursive: true, force: true });
      else await sleep(100);
    }
  }
}

/**
 * Packs every package into `dest` with `pnpm pack`, or copies the tarball an earlier check of the same
 * build packed; needs a build first (`pnpm build`).
 */
export async function packAll(pkgs: readonly WorkspacePackage[], dest: string): Promise<Packed[]> {
  for (const pkg of pkgs) {
    if (!existsSync(join(pkg.path, 'dist'))) throw new Error(`${pkg.name} has no dist/: run \`pnpm build\` first`);
  }
  mkdirSync(dest, { recursive: true });
  mkdirSync(PACK_CACHE, { recursive: true });
  const pnpm = (await runOk('pnpm', ['--version'], { cwd: ROOT })).stdout.trim();
  const versions = JSON.stringify([pnpm, workspacePackages().map((p) => [p.name, p.version])]);
  return Promise.all(
    pkgs.map(async (pkg) => {
      // pnpm's own name for the tarball (`x-node-client-0.1.0.tgz`), so a copy reads as a fresh pack.
      const filename = join(dest, `${pkg.name.replace(/^@/, '').replace('/', '-')}-${pkg.version}.tgz`);
      const cached = join(PACK_CACHE, `${pkg.dir}-${packHash(pkg, versions)}.tgz`);
      const unlock = await lockPackage(pkg.dir);
      try {
        if (existsSync(cached)) copyFileSync(cached, filename);
        else {
          const r = await runOk('pnpm', ['pack', '--pack-destination', dest, '--json'], { cwd: pkg.path });
          const out = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as { filename: string };
          if (basename(out.filename) !== basename(filename)) throw new Error(`pnpm pack wrote ${out.filename}, not ${filename}`);
          // Written whole, then renamed: a check that stops halfway leaves no torn tarball behind.
          // The package's tarballs of earlier builds are of no more use: one per package is kept.
          const earlier = new RegExp(`^${pkg.dir}-[0-9a-f]{16}\\.tgz$`);
          for (const f of readdirSync(PACK_CACHE)) if (earlier.test(f)) rmSync(join(PACK_CACHE, f), { force: true });
          const part = `${cached}.${process.pid}.part`;
          copyFileSync(filename, part);
          renameSync(part, cached);
        }
      } finally {
        unlock();
      }
      const list = await runOk('tar', ['-tzf', filename], { cwd: dest });
      const files = list.stdout
        .split('\n')
        .filter(Boolean)
        .map((f) => f.replace(/^package\//, ''))
        .sort();
      const manifest = JSON.parse((await runOk('tar', ['-xzOf', filename, 'package/package.json'], { cwd: dest })).stdout) as Manifest;
      return { pkg, tarball: filename, files, manifest };
    }),
  );
}

/** Counts checks and prints one line per check; `summary()` prints the closing `N passed, N failed`. */
export class Tally {
  passed = 0;
  failed = 0;
  readonly failures: string[] = [];
  ok(label: string): void {
    this.passed++;
    console.log(`  ok    ${label}`);
  }
  fail(label: string, detail?: string): void {
    this.failed++;
    this.failures.push(label);
    console.log(`  FAIL  ${label}${detail ? `\n${indent(detail.trimEnd(), 8)}` : ''}`);
  }
  check(label: string, condition: boolean, detail?: string): void {
    if (condition) this.ok(label);
    else this.fail(label, detail);
  }
  summary(title: string): void {
    if (this.failures.length) console.log(`\n${title}: failed checks:\n  ${this.failures.join('\n  ')}`);
    console.log(`\n${title}: ${this.passed} passed, ${this.failed} failed`);
  }
}

export function indent(text: string, n: number): string {
  const pad = ' '.repeat(n);
  return text
    .split('\n')
    .map((l) => pad + l)
    .join('\n');
}

/** Seconds since `start` (a `performance.now()` value), for the step timings. */
export const seconds = (start: number): string => `${((performance.now() - start) / 1000).toFixed(1)} s`;
