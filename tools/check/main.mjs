#!/usr/bin/env node
/**
 * `pnpm check`: every check of the repository, each run once; stops starting steps after the first one
 * that fails (its exit code is the run's) and prints how long each step took, so a slow step shows where
 * it is. Each step starts as soon as the steps it comes `after` have passed and one of `--jobs` slots (the
 * cores by default) is free, the first of the ready ones in STEPS' order; its output is printed whole when
 * it ends. Most steps are one Node thread (eslint, tsc, typedoc, npm installs), so two of them keep two
 * cores busy, and a step never waits on one it does not need (groups that started together made the
 * short steps of a group wait for its longest). The test runs (vitest uses every core; perf times itself)
 * run `alone`. One step, test:add-operation (a scratch copy that builds its own packages), runs beside
 * the others from the start, outside the slots: see BESIDE.
 * Plain Node (no tsx): the runner itself costs nothing. `pnpm check --from <step>` runs that step and those
 * listed after it (after fixing it, say), `pnpm check --only <step>` runs one, `--jobs 1` one at a time.
 */
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { availableParallelism, setPriority } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

/**
 * The checks, each a script of the root package.json, cheapest and most often failing first, then the
 * longest chain (`chain`: knip, gen --check, typecheck, build, test:install, one at a time) ahead of the
 * steps that only fill a free core. Those run niced (a lower CPU priority), so that they do not slow the
 * chain; as the chain is one step at a time, they still share a whole core (none starves).
 * Why each waits for what it does: `gen --check` builds the packages (one tsc -b) and `typecheck` /
 * `build` run turbo over the same outputs, so each waits for the one before (two turbo runs restoring the
 * same dist/ would race); the steps after `build` read the built packages and write only to temporary
 * folders. knip runs before anything writes dist/. The pack steps share a tarball cache (pack-check's
 * PACK_CACHE): `lint:packages` and `test:install` start together after `build` (one packs a package while
 * the other waits for its tarball: pack-check's lockPackage), the others copy from it. docs:api and the
 * lints read the sources only. A step's `after` that is not in the run (`--from`) counts as passed.
 */
const STEPS = [
  { step: 'knip', chain: true },
  { step: 'lint' },
  { step: 'lint:specs' },
  // Generated code, then the API reports of the packages: it builds the packages (tsc -b, each source
  // once), so the builds of typecheck and build after it are turbo cache hits.
  { step: 'gen --check', after: ['knip'], chain: true },
  // Checks the tests, the tools and the example app against the built packages.
  { step: 'typecheck', after: ['gen --check'], chain: true },
  // The rest of the build (the example app's Vite build); the packages are turbo cache hits.
  { step: 'build', after: ['typecheck'], chain: true },
  { step: 'lint:packages', after: ['build'] },
  { step: 'test:install', after: ['build'], chain: true },
  // test:add-operation is CONTRIBUTING's "Adding an operation" in a scratch copy: a new operation costs its
  // spec and pnpm gen --write. It needs nothing of the other steps: in a run of more than one job it starts
  // first, beside them (see BESIDE).
  { step: 'test:add-operation' },
  { step: 'docs:api' },
  { step: 'test:example', after: ['build'] },
  { step: 'test:newcomer', after: ['lint:packages'] },
  { step: 'test:playwright', after: ['build'] },
  { step: 'size', after: ['build'] },
  { step: 'release:dry-run', after: ['lint:packages'] },
  { step: 'conformance', after: ['build'] },
  // The tests and then the timings, each alone on the machine, after every other step has passed.
  { step: 'test', alone: true },
  { step: 'test:perf', alone: true },
];
/**
 * A step that works in a folder of its own (test:add-operation's scratch copy builds its own packages and
 * example app) and so runs beside the others, outside the slots, from the start, where it fills what the
 * one-thread steps leave idle (npm's waits, turbo's, its own). Only with more than one job: otherwise it
 * takes a slot like any step.
 */
const BESIDE = 'test:add-operation';
const NAMES = STEPS.map((s) => s.step);
/** The longest chain of steps that wait for each other; every other step that is not alone is niced. */
const CHAIN = new Set(STEPS.filter((s) => s.chain).map((s) => s.step));

const { values } = parseArgs({ options: { from: { type: 'string' }, only: { type: 'string' }, jobs: { type: 'string' } } });
const known = (step) => {
  if (step !== undefined && !NAMES.includes(step)) {
    console.error(`check: no step '${step}'; the steps are: ${NAMES.join(', ')}`);
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
const steps = only ? STEPS.filter((s) => s.step === only) : STEPS.slice(from ? NAMES.indexOf(from) : 0);
const inRun = new Set(steps.map((s) => s.step));
/** What each step waits for, within the run: its `after`; an `alone` step, every step before it; every step, the `alone` steps before it. */
const waitsFor = new Map(
  steps.map((s, i) => {
    const before = steps.slice(0, i);
    const needs = s.alone ? before.map((b) => b.step) : [...(s.after ?? []), ...before.filter((b) => b.alone).map((b) => b.step)];
    return [s.step, needs.filter((n) => inRun.has(n))];
  }),
);

const times = [];
const started = performance.now();
const table = () => {
  const width = Math.max(...times.map(([s]) => s.length));
  for (const [step, ms, verdict, at] of times) console.log(`  ${step.padEnd(width)}  ${(ms / 1000).toFixed(1).padStart(6)} s${verdict}  (started at ${(at / 1000).toFixed(0)} s)`);
  console.log(`  ${'total'.padEnd(width)}  ${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s`);
};

/** The steps running: each one's process group, so a run that stops early can end a step's whole tree (pnpm, tsx, node). */
const running = new Map();

/** Runs one step; alone it inherits the terminal, beside others its output is kept and printed when it ends. */
function run(step, alone) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    console.log(alone ? `\n> pnpm ${step}` : `\n> pnpm ${step} (started beside others; its output follows when it ends)`);
    const child = spawn('pnpm', step.split(' '), { stdio: alone ? 'inherit' : ['ignore', 'pipe', 'pipe'], detached: !alone });
    running.set(step, child);
    // The steps off the longest chain run at a lower priority (children inherit it): they take what the
    // chain leaves of the cores instead of slowing it, so the run ends when the CPU work is done.
    if (!alone && !CHAIN.has(step)) {
      try {
        setPriority(child.pid, 10);
      } catch {
        // Not permitted here: the step runs at the normal priority.
      }
    }
    const output = [];
    if (!alone) for (const stream of [child.stdout, child.stderr]) stream.on('data', (d) => output.push(d));
    child.on('close', (code, signal) => {
      running.delete(step);
      const ms = performance.now() - t0;
      if (!alone) {
        console.log(`\n> pnpm ${step} (${(ms / 1000).toFixed(1)} s)`);
        process.stdout.write(Buffer.concat(output));
      }
      times.push([step, ms, code === 0 ? '' : stopped.has(step) ? '  stopped' : '  FAILED', t0 - started]);
      resolve({ step, code: code ?? 1, signal });
    });
  });
}

/** The steps ended because another failed: not failures of their own. */
const stopped = new Set();
function stop(step, child) {
  stopped.add(step);
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    child.kill('SIGTERM');
  }
}

process.on('SIGINT', () => {
  for (const [step, child] of running) stop(step, child);
  process.exit(130);
});

// The scheduler: whenever a step ends, start every step that can, first ready first in STEPS' order.
const beside = jobs > 1 && !only && inRun.has(BESIDE);
const passed = new Set();
const failed = [];
const waiting = steps.map((s) => s.step);
let slotsUsed = 0;
await new Promise((done) => {
  const next = () => {
    if (failed.length === 0) {
      for (const step of [...waiting]) {
        const { alone } = steps.find((s) => s.step === step);
        const own = beside && step === BESIDE;
        if (!waitsFor.get(step).every((n) => passed.has(n))) continue;
        // An alone step starts on an idle machine, and nothing starts beside it.
        if (alone && running.size > 0) continue;
        if ([...running.keys()].some((r) => steps.find((s) => s.step === r).alone)) break;
        if (!own && slotsUsed >= jobs) continue;
        waiting.splice(waiting.indexOf(step), 1);
        if (!own) slotsUsed++;
        run(step, alone || steps.length === 1 || jobs === 1).then((r) => {
          if (!own) slotsUsed--;
          if (r.code === 0) passed.add(r.step);
          else if (!stopped.has(r.step)) failed.push(r);
          next();
        });
      }
    } else if (beside && running.has(BESIDE) && running.size === 1) {
      // A failure ends the step beside the others rather than waiting minutes for it.
      stop(BESIDE, running.get(BESIDE));
    }
    if (running.size === 0) done();
  };
  next();
});

if (failed.length === 0 && waiting.length > 0) {
  console.error(`check: the steps ${waiting.join(', ')} wait for steps that never ran (a cycle in STEPS' after)`);
  process.exit(2);
}
if (failed.length > 0) {
  for (const r of failed) console.log(`\ncheck: pnpm ${r.step} failed${r.signal ? ` (${r.signal})` : ''}`);
  console.log('step times:');
  table();
  process.exit(failed[0].code);
}
console.log('\ncheck: every step passed; step times:');
table();
