/**
 * The README's Standard Schema examples are real test files (test/examples/standard-*.test.ts, run and
 * type-checked with the rest). The README shows each verbatim, but for its import: the files import the
 * source (`../../src/standard.ts`; the tests resolve no subpath of the package), the README
 * `@x/validators/standard`. Every `ts` block of the section is one of them.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const dir = new URL('./examples/', import.meta.url);
const files = readdirSync(dir).filter((f) => f.startsWith('standard-') && f.endsWith('.ts')).sort();
const shown = (file: string): string => readFileSync(new URL(file, dir), 'utf8');

describe('README: Standard Schema', () => {
  it.each(files)('%s is shown verbatim', (file) => {
    const code = shown(file);
    expect(code).toContain(`from '@x/validators/standard'`);
    expect(code).not.toContain('../');
    expect(readme).toContain('```ts\n' + code + '```');
  });

  it('every ts block of the section is one of the example files', () => {
    const start = readme.indexOf('\n## Standard Schema\n');
    const end = readme.indexOf('\n## ', start + 1);
    expect(start).toBeGreaterThan(0);
    const blocks = [...readme.slice(start, end).matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks.length).toBe(files.length);
    expect(blocks.sort()).toEqual(files.map(shown).sort());
  });
});
