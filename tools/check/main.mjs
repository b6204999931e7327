#!/usr/bin/env node
/**
 * `pnpm check`: every check of the repository, in order, each run once; stops at the first that fails
 * (its exit code is the run's) and prints how long each step took, so a slow step shows where it is.
 * Plain Node (no tsx): the runner itself costs nothing. `pnpm check --from <step>` starts at a step
 * (after fixing it, say) and `pnpm check --only <step>` runs one; the steps are `pnpm <script>` names.
 */
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

/** The checks, cheapest and most often failing first; each is a script of the root package.json. */
const STEPS = [
  'lint',
  'knip',
  // Generated code, then the API reports of the packages: it builds the packages (tsc -b, each source
  // once), so the builds of typecheck and build after it are turbo cache hits.
  'gen --check',
  'lint:specs',
  // Checks the tests, the tools and the example app against the built packages.
  'typecheck',
  // The rest of the build (the example app's Vite build); the packages are turbo cache hits.
  'build',
  'conformance',
  'lint:packages',
  'test:install',
  'test:newcomer',
  'size',
  // CONTRIBUTING's "Adding an operation" in a scratch copy: a new operation costs its spec and pnpm gen --write.
  'test:add-operation',
  'docs:api',
  'release:dry-run',
  'test:playwright',
  'test:example',
  'test',
  'test:perf',
];

const { values } = parseArgs({ options: { from: { type: 'string' }, only: { type: 'string' } } });
const known = (step) => {
  if (step !== undefined && !STEPS.includes(step)) {
    console.error(`check: no step '${step}'; the steps are: ${STEPS.join(', ')}`);
    process.exit(2);
  }
  return step;
};
const from = known(values.from);
const only = known(values.only);
const steps = only ? [only] : STEPS.slice(from ? STEPS.indexOf(from) : 0);

const times = [];
const started = performance.now();
const table = () => {
  const width = Math.max(...times.map(([s]) => s.length));
  for (const [step, ms, ok] of times) console.log(`  ${step.padEnd(width)}  ${(ms / 1000).toFixed(1).padStart(6)} s${ok ? '' : '  FAILED'}`);
  console.log(`  ${'total'.padEnd(width)}  ${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s`);
};
for (const step of steps) {
  console.log(`\n> pnpm ${step}`);
  const t0 = performance.now();
  const r = spawnSync('pnpm', step.split(' '), { stdio: 'inherit' });
  const ok = r.status === 0;
  times.push([step, performance.now() - t0, ok]);
  if (!ok) {
    console.log(`\ncheck: pnpm ${step} failed${r.signal ? ` (${r.signal})` : ''}; step times:`);
    table();
    process.exit(r.status ?? 1);
  }
}
console.log('\ncheck: every step passed; step times:');
table();
