import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import ts from 'typescript';
import { ROOT } from './specs.ts';
import type { FileSet } from './files.ts';
import { header } from './files.ts';

/** Where the one copy of the clients' shared runtime (errors, retries, timeouts, HTTP) lives. */
export const RUNTIME_DIR = 'tools/client-runtime/src';
const CLIENTS = ['packages/node-client', 'packages/price-client'];

/** The relative module specifiers `source` imports or re-exports. */
function importsOf(source: string): string[] {
  return ts
    .preProcessFile(source, true, false)
    .importedFiles.map((f) => f.fileName)
    .filter((name) => name.startsWith('.'));
}

/**
 * The runtime modules a client uses: those its hand-written sources (the `.ts` files directly in its
 * `src/`) import from `./generated/runtime/`, and the ones those import in turn. A client's package
 * then carries no module it never loads.
 *
 * @example
 * ```ts
 * runtimeModulesOf('packages/price-client'); // ['errors.ts', 'params.ts', 'redact.ts', 'retry.ts', 'transport.ts']
 * ```
 */
export function runtimeModulesOf(client: string, root = ROOT, read = runtimeReader(root)): string[] {
  const src = join(root, client, 'src');
  const needed = new Set<string>();
  const add = (specifier: string, from: string): void => {
    const path = posix.normalize(posix.join(from, specifier));
    if (!path.startsWith('generated/runtime/')) return;
    const name = path.slice('generated/runtime/'.length).replace(/\.js$/, '.ts');
    if (needed.has(name)) return;
    needed.add(name);
    for (const next of importsOf(read(name))) add(next, 'generated/runtime');
  };
  for (const file of readdirSync(src).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'))) {
    for (const specifier of importsOf(readFileSync(join(src, file), 'utf8'))) add(specifier, '.');
  }
  return [...needed].sort();
}

/**
 * Delivers the shared runtime to the clients as generated files, each client the modules it uses, so
 * each client package is self-contained when published and the runtime still has one source.
 */
export function emitRuntime(files: FileSet, root = ROOT): void {
  const read = runtimeReader(root);
  for (const client of CLIENTS) {
    for (const name of runtimeModulesOf(client, root, read)) {
      files.set(`${client}/src/generated/runtime/${name}`, header(`${RUNTIME_DIR}/${name}`) + read(name));
    }
  }
}

/** Reads runtime modules by file name, each once (both clients and the import scan share them). */
function runtimeReader(root: string): (name: string) => string {
  const sources = new Map<string, string>();
  return (name) => {
    let source = sources.get(name);
    if (source === undefined) sources.set(name, (source = readFileSync(join(root, RUNTIME_DIR, name), 'utf8')));
    return source;
  };
}
