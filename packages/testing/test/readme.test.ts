/**
 * The README's examples are real test files (test/examples/, run with the rest): the README must show
 * each of them verbatim, so that the documented code is the code that passes.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const dir = new URL('./examples/', import.meta.url);

describe('README examples', () => {
  it.each(readdirSync(dir).filter((f) => f.endsWith('.ts')))('%s is shown in the README verbatim', (file) => {
    const code = readFileSync(new URL(file, dir), 'utf8');
    expect(readme).toContain('```ts\n' + code + '```');
  });
});
