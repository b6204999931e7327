import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './specs.ts';
import type { FileSet } from './files.ts';
import { header } from './files.ts';

/** Where the one copy of the clients' shared runtime (errors, retries, timeouts, HTTP) lives. */
export const RUNTIME_DIR = 'tools/client-runtime/src';
const CLIENTS = ['packages/node-client', 'packages/price-client'];

/**
 * Delivers the shared runtime to both clients as generated files, so each client package is
 * self-contained when published and the runtime still has one source.
 */
export function emitRuntime(files: FileSet, root = ROOT): void {
  const names = readdirSync(join(root, RUNTIME_DIR))
    .filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'))
    .sort();
  for (const name of names) {
    const source = readFileSync(join(root, RUNTIME_DIR, name), 'utf8');
    for (const client of CLIENTS) {
      files.set(`${client}/src/generated/runtime/${name}`, header(`${RUNTIME_DIR}/${name}`) + source);
    }
  }
}
