/**
 * No module of a published package imports one that imports it back, directly or around a circle, type
 * imports included: a circle makes the order modules evaluate in matter, keeps a bundler from leaving out
 * what a user does not import, and blurs which module owns what. (ESLint's import rules skip type
 * imports, so the graph is read here: relative imports and re-exports of every `src` file.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PACKAGES = join(ROOT, 'packages');

/** Every `.ts` file under `dir`. */
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name));

/** The relative imports and re-exports of `file`, as the files they name. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+'(\.{1,2}\/[^']+)'/gms)].map((m) => resolve(dirname(file), m[1]!.replace(/\.js$/, '.ts')));
}

/** Every circle of `graph`, each as the files around it. */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (file: string): void => {
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      const at = path.indexOf(next);
      if (at !== -1) found.push(path.slice(at));
      else if (!done.has(next)) visit(next);
    }
    path.pop();
    done.add(file);
  };
  for (const file of graph.keys()) if (!done.has(file)) visit(file);
  return found;
}

describe('import circles', () => {
  const packages = readdirSync(PACKAGES, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);

  it.each(packages)('%s: no module imports one that imports it back', (name) => {
    const files = sources(join(PACKAGES, name, 'src'));
    const graph = new Map(files.map((f) => [f, importsOf(f)]));
    expect(circles(graph).map((c) => c.map((f) => relative(ROOT, f)).join(' -> '))).toEqual([]);
  });

  it('finds a circle where there is one (the check itself)', () => {
    const graph = new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]);
    expect(circles(graph)).toEqual([['a', 'b', 'c']]);
  });
});
