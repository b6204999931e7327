import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { existsSync, readdirSync } from 'node:fs';
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
    { find: exact('@x/node-types'), replacement: pkg('node-types') },
    { find: exact('@x/price-types'), replacement: pkg('price-types') },
    { find: exact('@x/node-client'), replacement: pkg('node-client') },
    { find: exact('@x/node-client/shapes'), replacement: pkg('node-client', 'shapes') },
    { find: exact('@x/node-client/query'), replacement: pkg('node-client', 'query') },
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

/** Each package with a `test/` folder is a project named after its folder (`--project node-client`). */
const packages = readdirSync(root('./packages')).filter((name) => existsSync(root(`./packages/${name}/test`))).sort();

/**
 * A Node project: the same aliases and settings for every package and for the tools. A package's
 * `*.test-d.ts` files are type-checked in its project (tsc runs only for the packages that have some).
 */
function nodeProject(name: string, dir: string): TestProjectInlineConfiguration {
  const typetests = dir.startsWith('packages/') && readdirSync(root(`./${dir}/test`), { recursive: true }).some((f) => String(f).endsWith('.test-d.ts'));
  return {
    resolve,
    test: {
      name,
      include: [`${dir}/test/**/*.test.ts`],
      typecheck: { enabled: typetests, include: [`${dir}/test/**/*.test-d.ts`], tsconfig: './tsconfig.typetests.json' },
      testTimeout: 20_000,
      pool: 'forks',
    },
  };
}

export default defineConfig({
  test: {
    projects: [
      // One project per package (`client-core`, `node-client`, ...), and `tools` for tools/*/test;
      // `pnpm test:node` runs them all, `npx vitest run --project node-client` one of them.
      ...packages.map((name) => nodeProject(name, `packages/${name}`)),
      nodeProject('tools', 'tools/*'),
      // The built packages (dist/) in headless Chromium: `pnpm build` first (pnpm check does).
      browserProject(),
    ],
  },
});
