/**
 * Every ```ts block of every README (root, packages/*, examples/*, tools/*) and of docs/*.md is tested
 * verbatim by a test file, type-checked here (strict, exactOptionalPropertyTypes), or opted out with a
 * `<!-- readme-check: skip: reason -->` marker; see tools/readme-check/src/blocks.ts.
 */
import { describe, expect, it } from 'vitest';
import { checkAll, checkLinks, extractBlocks, report } from '../src/blocks.ts';

describe('README code blocks', () => {
  it('every ```ts block is tested verbatim, type-checks, or is opted out with a reason', () => {
    const verdicts = checkAll();
    console.log(report(verdicts));
    expect(verdicts.length).toBeGreaterThan(0);
    expect(verdicts.filter((v) => v.kind === 'failed').map((v) => `${v.block.file}:${v.block.line}\n${v.detail}`)).toEqual([]);
  }, 180_000);

  it('reads indented fences and skip markers', () => {
    const md = 'a\n<!-- readme-check: skip: needs a browser -->\n```ts\nx;\n```\n- item\n\n  ```ts\n  const a = 1;\n  ```\n```sh\nls\n```\n';
    expect(extractBlocks('X.md', md)).toEqual([
      { file: 'X.md', line: 3, code: 'x;\n', skip: 'needs a browser' },
      { file: 'X.md', line: 8, code: 'const a = 1;\n' },
    ]);
  });
});

describe('README links', () => {
  it('package READMEs link with absolute URLs of the repository; no link leaves it or names a missing path', () => {
    expect(checkLinks()).toEqual([]);
  });
});
