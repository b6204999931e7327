#!/usr/bin/env node
/**
 * `pnpm check`: every check of the repository, each run once; stops after the first group with a failing
 * step (its exit code is the run's) and prints how long each step took, so a slow step shows where it is.
 * Steps run in groups: a group starts when the one before it passed, and the steps of a group run side by
 * side (at most `--jobs`, the cores by default), each one's output printed whole when it ends. Most steps
 * are one Node thread (eslint, tsc, typedoc, npm installs), so two of them on two cores take the time of
 * the longer; the test runs (vitest uses every core; perf times itself) have a group to themselves. One
 * step, test:add-operation (a scratch copy that builds its own packages), runs beside the groups from the
 * first one until its own group ends: see BESIDE.
 * Plain Node (no tsx): the runner itself costs nothing. `pnpm check --from <step>` starts at a step's group
 * (after fixing it, say), `pnpm check --only <step>` runs one, `--jobs 1` runs one step at a time.
 */
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

/**
 * The checks, cheapest and most often failing first; each is a script of the root package.json. Why the
 * groups are cut where they are: `gen --check` builds the packages (tsc -b) and `typecheck` / `build` run
 * turbo over the same outputs, so each has a group of its own (two turbo runs restoring the same dist/
 * would race); everything after `build` reads the built packages and writes only to temporary folders. The
 * pack steps share a tarball cache (pack-check's PACK_CACHE): `lint:packages` fills it a group before the
 * others copy from it.
 */
const GROUPS = [
  ['lint', 'knip', 'lint:specs'],
  // Generated code, then the API reports of the packages: it builds the packages (tsc -b, each source
  // once), so the builds of typecheck and build after it are turbo cache hits.
  ['gen --check'],
  // Checks the tests, the tools and the example app against the built packages.
  ['typecheck'],
  // The rest of the build (the example app's Vite build); the packages are turbo cache hits.
  ['build'],
  ['conformance', 'lint:packages', 'size', 'docs:api'],
  // test:add-operation is CONTRIBUTING's "Adding an operation" in a scratch copy: a new operation costs its
  // spec and pnpm gen --write. In a whole run it starts with the first group (see BESIDE) and this group
  // waits for it; the longest steps first, so the short ones fill the other core.
  ['test:add-operation', 'test:install', 'test:example', 'test:newcomer', 'test:playwright', 'release:dry-run'],
  ['test'],
  ['test:perf'],
];
/**
 * A step that works in a folder of its own (test:add-operation's scratch copy builds its own packages and
 * example app) and so runs beside the groups, from the first one, where it fills the core that the
 * one-thread steps (gen --check, typecheck) leave idle; its own group waits for it to end. Only when the
 * run starts at the first group with more than one job: otherwise it runs in its group like any step.
 */
const BESIDE = 'test:add-operation';
const STEPS = GROUPS.flat();

const { values } = parseArgs({ options: { from: { type: 'string' }, only: { type: 'string' }, jobs: { type: 'string' } } });
const known = (step) => {
  if (step !== undefined && !STEPS.includes(step)) {
    console.error(`check: no step '${step}'; the steps are: ${STEPS.join(', ')}`);
    process.exit(2);
  }
  return step;
};
const from = known(values.from);
const only = known(values.only);
const jobs = Number(values.jobs ?? availableParallelism());
if (!Number.isInteger(jobs) || jobs < 1) {
  console.error(`check: --jobs must be a whole number >= 1, not '${values.jobs}'`);
  process.exit(2);
}
const groups = only ? [[only]] : GROUPS.slice(from ? GROUPS.findIndex((g) => g.includes(from)) : 0);

const times = [];
const started = performance.now();
const table = () => {
  const width = Math.max(...times.map(([s]) => s.length));
  for (const [step, ms, ok] of times) console.log(`  ${step.padEnd(width)}  ${(ms / 1000).toFixed(1).padStart(6)} s${ok ? '' : '  FAILED'}`);
  console.log(`  ${'total'.padEnd(width)}  ${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s`);
};

/** Runs one step; alone it inherits the terminal, beside others its output is kept and printed when it ends. */
function run(step, alone) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    console.log(alone ? `\n> pnpm ${step}` : `\n> pnpm ${step} (started beside others; its output follows when it ends)`);
    // Its own process group, so a run that stops early can end the step's whole tree (pnpm, tsx, node).
    const child = spawn('pnpm', step.split(' '), { stdio: alone ? 'inherit' : ['ignore', 'pipe', 'pipe'], detached: !alone });
    running.add(child);
    const output = [];
    if (!alone) for (const stream of [child.stdout, child.stderr]) stream.on('data', (d) => output.push(d));
    child.on('close', (code, signal) => {
      running.delete(child);
      const ms = performance.now() - t0;
      if (!alone) {
        console.log(`\n> pnpm ${step} (${(ms / 1000).toFixed(1)} s)`);
        process.stdout.write(Buffer.concat(output));
      }
      times.push([step, ms, code === 0]);
      resolve({ step, code: code ?? 1, signal });
    });
  });
}

/** The steps still running when the run stops early (a step beside the groups): each process group ended. */
const running = new Set();
function stopRunning() {
  for (const child of running) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      child.kill('SIGTERM');
    }
  }
}

/** The steps of a group, at most `jobs` at once, in their order. */
async function runGroup(group) {
  const queue = [...group];
  const results = [];
  const worker = async () => {
    for (let step = queue.shift(); step !== undefined; step = queue.shift()) results.push(await run(step, group.length === 1 || jobs === 1));
  };
  await Promise.all(Array.from({ length: Math.min(jobs, group.length) }, worker));
  return results;
}

process.on('SIGINT', () => {
  stopRunning();
  process.exit(130);
});
// The step beside the groups starts now when the run has the first group and more than one job.
// Its failure stops the run after the group running when it ends, as a failure in that group would.
const besideRun = !only && groups[0] === GROUPS[0] && jobs > 1 ? run(BESIDE, false) : undefined;
let besideResult;
besideRun?.then((r) => (besideResult = r));
for (const group of groups) {
  const own = besideRun !== undefined && group.includes(BESIDE);
  const results = await runGroup(own ? group.filter((s) => s !== BESIDE) : group);
  if (own) results.push(await besideRun);
  else if (besideResult?.code) results.push(besideResult);
  const failed = results.filter((r) => r.code !== 0);
  if (failed.length > 0) {
    stopRunning();
    for (const r of failed) console.log(`\ncheck: pnpm ${r.step} failed${r.signal ? ` (${r.signal})` : ''}`);
    console.log('step times:');
    table();
    process.exit(failed[0].code);
  }
}
console.log('\ncheck: every step passed; step times:');
table();
