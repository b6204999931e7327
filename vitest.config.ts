import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';
import { browserProject } from './tools/browser-tests/src/config.ts';

const pkg = (name: string): string => fileURLToPath(new URL(`./packages/${name}/src/index.ts`, import.meta.url));

export default defineConfig({
  test: {
    projects: [
      {
        resolve: {
          // Tests import the packages by their public names; resolve those to source so no build is needed.
          alias: {
            '@x/client-core': pkg('client-core'),
            '@x/node-types': pkg('node-types'),
            '@x/node-client': pkg('node-client'),
            '@x/price-client': pkg('price-client'),
            '@x/validators': pkg('validators'),
          },
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
