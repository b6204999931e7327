import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';
import { browserProject } from './tools/browser-tests/src/config.ts';

const pkg = (name: string, module = 'index'): string => fileURLToPath(new URL(`./packages/${name}/src/${module}.ts`, import.meta.url));
/** An exact import specifier (a plain string would also match its subpaths). */
const exact = (specifier: string) => new RegExp(`^${specifier.replace(/[/.]/g, '\\$&')}$`);

export default defineConfig({
  test: {
    projects: [
      {
        resolve: {
          // Tests import the packages by their public names; resolve those to source so no build is needed.
          alias: [
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
            { find: exact('@x-tools/scripted-server'), replacement: fileURLToPath(new URL('./tools/scripted-server/src/index.ts', import.meta.url)) },
            { find: exact('@x-tools/test-helpers'), replacement: fileURLToPath(new URL('./tools/test-helpers/src/index.ts', import.meta.url)) },
          ],
        },
        test: {
          name: 'node',
          include: ['packages/*/test/**/*.test.ts', 'tools/*/test/**/*.test.ts'],
          typecheck: { enabled: true, include: ['packages/*/test/**/*.test-d.ts'], tsconfig: './tsconfig.typetests.json' },
          testTimeout: 20_000,
          pool: 'forks',
        },
      },
      // The built packages (dist/) in headless Chromium: `pnpm build` first (pnpm check does).
      browserProject(),
    ],
  },
});
