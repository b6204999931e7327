/**
 * Every ```ts block of every README (root, packages/*, examples/*, tools/*) and of docs/*.md is tested
 * verbatim by a test file, type-checked here (strict, exactOptionalPropertyTypes), or opted out with a
 * `<!-- readme-check: skip: reason -->` marker; see tools/readme-check/src/blocks.ts.
 */
import { format } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkAll, checkLinks, extractBlocks, report, type Verdict } from '../src/blocks.ts';
import { runReadmeCheck } from '../src/command.ts';

describe('README code blocks', () => {
  // The check is seconds of tsc: run once, read by the test of the verdicts and those of the command.
  let verdicts: Verdict[];
  beforeAll(() => {
    verdicts = checkAll();
  }, 180_000);

  it('every ```ts block is tested verbatim, type-checks, or is opted out with a reason', () => {
    console.log(report(verdicts));
    expect(verdicts.length).toBeGreaterThan(0);
    expect(verdicts.filter((v) => v.kind === 'failed').map((v) => `${v.block.file}:${v.block.line}\n${v.detail}`)).toEqual([]);
  });

  it('reads indented fences and skip markers', () => {
    const md = 'a\n<!-- readme-check: skip: needs a browser -->\n```ts\nx;\n```\n- item\n\n  ```ts\n  const a = 1;\n  ```\n```sh\nls\n```\n';
    expect(extractBlocks('X.md', md)).toEqual([
      { file: 'X.md', line: 3, code: 'x;\n', skip: 'needs a browser' },
      { file: 'X.md', line: 8, code: 'const a = 1;\n' },
    ]);
  });

  describe('the command (in-process, on the verdicts above)', () => {
    const run = (argv: string[], check: () => readonly Verdict[]): { code: number; lines: string[] } => {
      let out = '';
      const code = runReadmeCheck(argv, { log: (...data: unknown[]) => (out += `${format(...data)}\n`) }, check);
      return { code, lines: out.trimEnd().split('\n') };
    };

    it('prints the report and the time, with --verbose a line per block; exits 0', () => {
      const { code, lines } = run(['--verbose'], () => verdicts);
      expect(code).toBe(0);
      expect(lines.slice(0, -1)).toEqual([...report(verdicts).split('\n'), ...verdicts.map((v) => `  ${v.kind.padEnd(11)} ${v.block.file}:${v.block.line}  ${v.detail.split('\n')[0]}`)]);
      expect(lines.at(-1)).toMatch(/^\(\d+\.\d s\)$/);
      expect(run([], () => verdicts).lines.slice(0, -1)).toEqual(report(verdicts).split('\n'));
    });

    it('exits 1 and names the block when one fails', () => {
      const failed: Verdict = { block: { file: 'X.md', line: 3, code: 'x;\n' }, kind: 'failed', detail: "X.md:4: TS2304: Cannot find name 'x'." };
      const { code, lines } = run([], () => [...verdicts, failed]);
      expect(code).toBe(1);
      expect(lines).toContain('  FAIL       X.md:3');
      expect(lines).toContain("             X.md:4: TS2304: Cannot find name 'x'.");
    });
  });
});

describe('README links', () => {
  it('package READMEs link with absolute URLs of the repository; no link leaves it or names a missing path', () => {
    expect(checkLinks()).toEqual([]);
  });
});
