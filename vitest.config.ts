import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { browserProject } from './tools/browser-tests/src/config.ts';

const root = (path: string): string => fileURLToPath(new URL(path, import.meta.url));
const pkg = (name: string, module = 'index'): string => root(`./packages/${name}/src/${module}.ts`);
/** An exact import specifier (a plain string would also match its subpaths). */
const exact = (specifier: string) => new RegExp(`^${specifier.replace(/[/.]/g, '\\$&')}$`);

/** Tests import the packages by their public names; resolve those to source so no build is needed. */
const resolve = {
  alias: [
    { find: exact('@x/common'), replacement: pkg('common') },
    { find: exact('@x/client-core'), replacement: pkg('client-core') },
    { find: exact('@x/client-core/internal'), replacement: pkg('client-core', 'internal') },
    { find: exact('@x/node-types'), replacement: pkg('node-types') },
    { find: exact('@x/price-types'), replacement: pkg('price-types') },
    { find: exact('@x/node-client'), replacement: pkg('node-client') },
    { find: exact('@x/node-client/shapes'), replacement: pkg('node-client', 'shapes') },
    { find: exact('@x/node-client/query'), replacement: pkg('node-client', 'query') },
    { find: exact('@x/node-client/node'), replacement: pkg('node-client', 'node') },
    { find: exact('@x/price-client'), replacement: pkg('price-client') },
    { find: exact('@x/price-client/query'), replacement: pkg('price-client', 'query') },
    { find: exact('@x/validators'), replacement: pkg('validators') },
    { find: exact('@x/validators/standard'), replacement: pkg('validators', 'standard') },
    { find: exact('@x/testing'), replacement: pkg('testing') },
    { find: exact('@x/testing/msw'), replacement: pkg('testing', 'msw') },
    { find: exact('@x-tools/scripted-server'), replacement: root('./tools/scripted-server/src/index.ts') },
    { find: exact('@x-tools/test-helpers'), replacement: root('./tools/test-helpers/src/index.ts') },
  ],
};

/**
 * The checks that time themselves or run many generated values: the `perf` project's, no other's. `pnpm
 * test:node` leaves them out with `--exclude` of this glob, not a second `--project '!perf'`: vitest 4.1
 * joins `--project` patterns with "or", so `'!browser'` alone would let `perf` in (vitest#10491).
 */
const PERF_TESTS = '**/*.perf.test.ts';

/**
 * The test files that need a process of their own (vitest's default, `isolate: true`), and why: the
 * project `node-isolated`. Every other Node test file shares its worker's modules with the files before
 * it (`isolate: false`, the project `node`).
 */
const ISOLATED: Record<string, string> = {
  // vi.mock reaches only modules imported after it: the stubs' and x-validate's modules, imported once
  // per worker by an earlier file, would keep the real tables.
  'packages/testing/test/not-implemented.test.ts': 'vi.mock of the generated operation tables and samples',
  'packages/validators/test/record-table.test.ts': 'vi.mock of the generated operation tables',
  // msw 2.15's setupServer instances share one set of interceptors: once a server has listened and
  // closed in a process, each WebSocket connection of the next server is handled twice.
  'packages/testing/test/msw.test.ts': "msw's WebSocket handlers",
  'packages/testing/test/node-stream-msw.test.ts': "msw's WebSocket handlers",
  'packages/testing/test/price-feed-msw.test.ts': "msw's WebSocket handlers",
  // TanStack Form's devtools client (the README's form example) keeps retrying a connection on an
  // interval after the file has ended: the next file of the worker would find the timer open.
  'packages/validators/test/examples/standard-form.test.ts': "TanStack Form's devtools timer",
};
const NODE_TESTS = ['packages/*/test/**/*.test.ts', 'tools/*/test/**/*.test.ts'];

/**
 * `node`: the tests of every package and tool, run from source (the aliases above; no build needed),
 * one project, so that a worker runs file after file of any package on the modules it imported once (the
 * packages, the validators' generated code, ajv, msw, TanStack Query): less than half the CPU of a
 * process per file, and a sixth less than a project per package (each with workers of its own). Each
 * file must leave the process as it found it, which process-state.ts checks after each one. The type
 * tests (`*.test-d.ts`) are not run here: `pnpm typecheck` checks them with every other test file, once,
 * in the root tsconfig.json's program. One package: `npx vitest run packages/node-client`.
 */
function nodeProject(): TestProjectInlineConfiguration {
  return {
    resolve,
    test: {
      name: 'node',
      include: NODE_TESTS,
      exclude: [...configDefaults.exclude, PERF_TESTS, ...Object.keys(ISOLATED)],
      testTimeout: 20_000,
      pool: 'forks',
      isolate: false,
      setupFiles: [root('./tools/test-helpers/src/process-state.ts')],
    },
  };
}

/** `node-isolated`: the {@link ISOLATED} files, each in a process of its own. */
function isolatedProject(): TestProjectInlineConfiguration {
  return { resolve, test: { name: 'node-isolated', include: Object.keys(ISOLATED), testTimeout: 20_000, pool: 'forks', isolate: true } };
}

/**
 * The `*.perf.test.ts` files that time nothing (fast-check property runs, the differential sweeps, the
 * exhaustive address and u64 runs): they cost CPU, not a quiet one, so they run two at a time in
 * `perf-sweeps`, before `perf`'s timings (a group of one worker runs after the others). A new perf file
 * is a timing (`perf`) until it is listed here.
 */
const SWEEPS = [
  'packages/common/test/address.perf.test.ts',
  'packages/common/test/u64.perf.test.ts',
  'packages/node-client/test/address.perf.test.ts',
  'packages/validators/test/differential.perf.test.ts',
  'packages/validators/test/equivalence.perf.test.ts',
  'packages/validators/test/standard-json-schema.perf.test.ts',
  'packages/validators/test/standard.perf.test.ts',
];

/** `perf-sweeps`: {@link SWEEPS}, two at a time. */
function sweepsProject(): TestProjectInlineConfiguration {
  return { resolve, test: { name: 'perf-sweeps', include: SWEEPS, testTimeout: 20_000, pool: 'forks' } };
}

/**
 * `perf`: the `*.perf.test.ts` files of the packages and tools, the checks that cost seconds of CPU or
 * compare timings: time linear in the input (a ratio of two sizes in the same run), fast-check property
 * runs, and the differential sweeps against other JSON Schema implementations. One file at a time
 * (`maxWorkers: 1`, which also makes vitest run them after the other projects' files when a run has
 * both): a timing taken while another file works on the other core would measure that file too.
 * `pnpm test:perf` runs it and `perf-sweeps` (the last step of `pnpm check`).
 */
function perfProject(): TestProjectInlineConfiguration {
  return {
    resolve,
    test: {
      name: 'perf',
      include: [`packages/*/test/${PERF_TESTS}`, `tools/*/test/${PERF_TESTS}`],
      exclude: [...configDefaults.exclude, ...SWEEPS],
      testTimeout: 20_000,
      pool: 'forks',
      maxWorkers: 1,
    },
  };
}

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores, which is one on a 2-core machine (CI's): the
    // tests mostly wait on loopback sockets and timers, and two workers there take 121 s where one takes
    // 188 s. At least two, else the default.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      // The packages' and tools' tests: `pnpm test:node` runs both, `npx vitest run packages/node-client`
      // one package's. `perf` is in neither `pnpm test` nor `pnpm test:node`: `pnpm test:perf` runs it.
      nodeProject(),
      isolatedProject(),
      perfProject(),
      sweepsProject(),
      // The built packages (dist/) in headless Chromium: `pnpm build` first (pnpm check does).
      browserProject(),
    ],
  },
});
