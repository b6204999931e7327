/**
 * What a README example imports is what its reader installs: a client's user installs the client, not
 * `@x/client-core` (under pnpm's strict layout a package installed only as another's dependency cannot be
 * imported). Every README's code imports the errors and helpers from the client, which re-exports them;
 * only client-core's own README imports client-core.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as coreExports from '@x/client-core';
import * as nodeExports from '@x/node-client';
import * as priceExports from '@x/price-client';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const readmes = ['README.md', ...['packages', 'examples'].flatMap((dir) => readdirSync(`${ROOT}${dir}`).map((d) => `${dir}/${d}/README.md`))].filter((f) => existsSync(`${ROOT}${f}`));

describe('README examples import what their reader installs', () => {
  it('none imports @x/client-core but client-core\'s own', () => {
    const offenders = readmes
      .filter((f) => f !== 'packages/client-core/README.md')
      .flatMap((f) => [...readFileSync(`${ROOT}${f}`, 'utf8').matchAll(/^.*from ['"]@x\/client-core['"].*$/gm)].map((m) => `${f}: ${m[0]}`));
    expect(offenders).toEqual([]);
  });

  it('both clients re-export the errors and helpers the READMEs import from them', () => {
    for (const name of ['HttpError', 'ClientError', 'isNotFound', 'isUnauthorized'] as const) {
      expect(nodeExports[name], `@x/node-client ${name}`).toBe(coreExports[name]);
      expect(priceExports[name], `@x/price-client ${name}`).toBe(coreExports[name]);
    }
  });
});
