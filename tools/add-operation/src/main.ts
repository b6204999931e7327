/**
 * `pnpm test:add-operation`, a step of `pnpm check`: CONTRIBUTING's "Adding an operation" done in a
 * scratch copy of the repository. The copy gets one new operation with a new response schema in
 * specs/node-rpc.openapi.yaml (a transaction read of the version after the spec's newest, shaped as the
 * node's v4 read), then `pnpm gen --write`, then the checks a new operation used to fail (the tests that
 * read every operation or schema, the type check, the API reports, the sizes); it fails if one fails, or
 * if anything but the spec, generated code and API reports changed.
 *
 *   pnpm test:add-operation           # run it (it builds what it needs in the copy: pnpm check runs it beside its other steps)
 *   pnpm test:add-operation --keep    # leave the copy in the OS temp folder and print where
 *   pnpm test:add-operation --head    # copy the last commit instead of the working tree
 *
 * The copy is of the working tree (tracked files and new ones git does not ignore), with node_modules
 * linked to the repository's; `pnpm check` runs it on a clean clone, where the two are the same.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { addOperation, changedFiles, UNCHANGED_BY_HAND } from './scratch.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');

/** The test files that read every operation or schema (the ones a new operation failed before it cost only its spec). */
const TESTS = [
  'packages/testing/test/routes.test.ts',
  'packages/testing/test/samples.test.ts',
  'packages/validators/test/responses.test.ts',
  'packages/validators/test/records.test.ts',
  'packages/validators/test/standard.test.ts',
  'packages/validators/test/standard-json-schema.test.ts',
  'packages/validators/test/x-validate.test.ts',
  'tools/gen/test/spec-coverage.test.ts',
  'tools/gen/test/generate.test.ts',
  'tools/gen/test/synthetic-operation.test.ts',
];

const { values } = parseArgs({ options: { keep: { type: 'boolean' }, head: { type: 'boolean' } } });
const started = performance.now();
const dir = mkdtempSync(join(tmpdir(), 'add-operation-'));

/** The files git knows or would add (tracked, or new and not ignored) as they are in the working tree, and node_modules linked so the copy resolves to itself. */
function copyRepository(): Map<string, string> {
  const hashes = new Map<string, string>();
  if (values.head) {
    // The last commit's files, as a clean clone has them.
    const archive = spawnSync('git', ['archive', '--format=tar', 'HEAD'], { cwd: ROOT, maxBuffer: 1024 * 1024 * 1024 });
    spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout });
  }
  const files = values.head
    ? spawnSync('git', ['ls-tree', '-r', '-z', '--name-only', 'HEAD'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).stdout
    : spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).stdout;
  for (const file of files.split('\0').filter(Boolean)) {
    const from = values.head ? join(dir, file) : join(ROOT, file);
    if (!existsSync(from)) continue;
    if (!values.head) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      cpSync(from, join(dir, file));
    }
    hashes.set(file, createHash('sha256').update(readFileSync(from)).digest('hex'));
  }
  // The root's installed packages are shared, but not @x/* (links into this repository's packages, which
  // must be the copy's) nor caches. Each workspace package's node_modules holds relative links: copied as
  // they are, they point into the copy.
  mkdirSync(join(dir, 'node_modules'));
  for (const entry of readdirSync(join(ROOT, 'node_modules'))) {
    if (entry === '.cache' || entry === '@x') continue;
    symlinkSync(join(ROOT, 'node_modules', entry), join(dir, 'node_modules', entry));
  }
  for (const base of ['packages', 'tools', 'examples']) {
    for (const pkg of readdirSync(join(ROOT, base))) {
      const modules = join(ROOT, base, pkg, 'node_modules');
      if (existsSync(modules)) cpSync(modules, join(dir, base, pkg, 'node_modules'), { recursive: true, verbatimSymlinks: true });
    }
  }
  cpSync(join(ROOT, 'node_modules', '@x'), join(dir, 'node_modules', '@x'), { recursive: true, verbatimSymlinks: true });
  return hashes;
}

const times: [string, number][] = [];
function step(name: string, command: string, args: string[]): void {
  const t0 = performance.now();
  console.log(`\n> ${command} ${args.join(' ')}`);
  const r = spawnSync(command, args, { cwd: dir, stdio: 'inherit', env: { ...process.env, CI: '1' } });
  times.push([name, performance.now() - t0]);
  if (r.status !== 0) fail(`${command} ${args.join(' ')} failed in the copy with a new operation`);
}

/**
 * Runs the checks at once, each one's output printed whole when it ends: the type check is one thread,
 * the tests mostly wait on imports, so together they take little longer than the tests alone.
 */
async function together(steps: readonly [name: string, command: string, args: string[]][]): Promise<void> {
  const failed: string[] = [];
  await Promise.all(
    steps.map(
      ([name, command, args]) =>
        new Promise<void>((resolve) => {
          const t0 = performance.now();
          const child = spawn(command, args, { cwd: dir, env: { ...process.env, CI: '1', FORCE_COLOR: '0' } });
          let output = '';
          child.stdout.on('data', (d: Buffer) => (output += d.toString()));
          child.stderr.on('data', (d: Buffer) => (output += d.toString()));
          child.on('close', (code) => {
            times.push([name, performance.now() - t0]);
            console.log(`\n> ${command} ${args.join(' ')}\n${output}`);
            if (code !== 0) failed.push(`${command} ${args.join(' ')}`);
            resolve();
          });
        }),
    ),
  );
  if (failed.length > 0) fail(`${failed.join(' and ')} failed in the copy with a new operation`);
}

function fail(message: string): never {
  console.error(`\nadd-operation: ${message}; the copy is ${dir}`);
  report();
  process.exit(1);
}

function report(): void {
  for (const [name, ms] of times) console.log(`  ${name.padEnd(14)} ${(ms / 1000).toFixed(1).padStart(6)} s`);
  console.log(`  ${'total'.padEnd(14)} ${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s`);
}

const t0 = performance.now();
const before = copyRepository();
times.push(['copy', performance.now() - t0]);
const spec = join(dir, 'specs/node-rpc.openapi.yaml');
const { operationId } = addOperation(spec);
console.log(`add-operation: ${operationId} added to a copy of the node spec in ${dir}`);

step('gen --write', 'pnpm', ['gen', '--write']);
const changed = changedFiles(dir, before).filter((f) => f !== 'specs/node-rpc.openapi.yaml');
const byHand = changed.filter((f) => !UNCHANGED_BY_HAND.some((re) => re.test(f)));
if (byHand.length > 0) fail(`pnpm gen --write changed files that are neither generated code nor API reports: ${byHand.join(', ')}`);
if (!changed.some((f) => f.startsWith('packages/testing/src/generated/'))) fail(`pnpm gen --write wrote no sample of ${operationId}`);
// The example app on the new packages, which `pnpm size` measures (the packages are turbo cache hits of
// the build gen --write just ran): the copy needs nothing built in the repository, so `pnpm check` runs
// this step beside its others from the start.
step('build example', 'pnpm', ['exec', 'turbo', 'run', 'build', '--filter=@x-examples/explorer', '--output-logs=errors-only']);
await together([
  ['tests', 'pnpm', ['exec', 'vitest', 'run', ...TESTS]],
  // The packages were built (and so type-checked) by pnpm gen --write; this checks the tests and tools against them.
  ['typecheck', 'pnpm', ['exec', 'tsc', '-p', 'tsconfig.json']],
  ['size', 'pnpm', ['size']],
]);
// Nothing but what pnpm gen --write wrote differs from the repository: no other edit was needed.
const after = changedFiles(dir, before).filter((f) => f !== 'specs/node-rpc.openapi.yaml' && !changed.includes(f));
if (after.length > 0) fail(`the checks changed files: ${after.join(', ')}`);

console.log(`\nadd-operation: ${operationId} with its new schema cost its spec and \`pnpm gen --write\` (${changed.length} files written); every check passed:`);
report();
if (values.keep) console.log(`the copy: ${dir}`);
else rmSync(dir, { recursive: true, force: true });
