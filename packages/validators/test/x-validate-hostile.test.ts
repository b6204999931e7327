/**
 * x-validate against hostile input: a directory built to make the walk loop forever or read files
 * outside it, and recordings that carry control characters meant for the terminal or for the JUnit
 * parser. Real temp directories; the CLI's functions are called in-process.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../src/cli/run.ts';
import type { Format } from '../src/cli/report.ts';
import { within } from './helpers.ts';
import { xmlProblem } from './xml.ts';

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'x-validate-hostile-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const account = { sequence_number: 1, authentication_key: '0xab' };
const envelope = (url: string, body: unknown = account, method = 'GET') => ({ request: { method, url }, response: { status: 200, body } });
const validate = (paths: string[], format: Format = 'text', strict = false) => within(10_000, 'x-validate', run(paths, { strict, format }));

describe('x-validate: directory walks', () => {
  it('ends on a directory with two symbolic link loops, reading each directory once', async () => {
    const dir = join(tmp, 'loops');
    mkdirSync(join(dir, 'sub'), { recursive: true });
    writeFileSync(join(dir, 'sub', 'ok.json'), JSON.stringify(envelope('http://n/rpc/v2/accounts/0x1')));
    symlinkSync('.', join(dir, 'a'));
    symlinkSync('..', join(dir, 'sub', 'b'));
    const { output, results, failed } = await validate([dir]);
    expect(failed).toBe(false);
    expect(results.filter((r) => r.outcome === 'pass').map((r) => r.source)).toEqual([join(dir, 'sub', 'ok.json')]);
    expect(output).toMatch(/SKIP .*loops\/a\).*already read/);
  });

  describe('links out of the directory given', () => {
    let given: string;
    let outside: string;
    beforeAll(() => {
      given = join(tmp, 'given');
      outside = join(tmp, 'outside');
      mkdirSync(join(outside, 'sub'), { recursive: true });
      mkdirSync(given);
      writeFileSync(join(outside, 'secret.json'), 'SECRET=hunter2 and more');
      writeFileSync(join(outside, 'sub', 'rec.json'), JSON.stringify(envelope('http://n/rpc/v2/accounts/0x2')));
      writeFileSync(join(given, 'ok.json'), JSON.stringify(envelope('http://n/rpc/v2/accounts/0x1')));
      symlinkSync(join(outside, 'secret.json'), join(given, 'leak.json'));
      symlinkSync('../outside/sub', join(given, 'out'));
      if (existsSync('/proc/self/environ')) symlinkSync('/proc/self/environ', join(given, 'env.json'));
    });

    it('are skipped with a note, not followed, and nothing of their targets is shown', async () => {
      const { output, results, failed } = await validate([given]);
      expect(failed).toBe(false);
      expect(output).not.toContain('SECRE');
      expect(output).not.toContain('hunter2');
      expect(output).not.toContain('rec.json');
      expect(results.filter((r) => r.outcome === 'pass').map((r) => r.source)).toEqual([join(given, 'ok.json')]);
      const skipped = results.filter((r) => r.outcome === 'skip');
      const names = ['leak.json', 'out', ...(existsSync('/proc/self/environ') ? ['env.json'] : [])].sort();
      expect(skipped.map((r) => r.source).sort()).toEqual(names.map((n) => join(given, n)));
      for (const r of skipped) expect(r.message).toMatch(/symbolic link out of .*given.*not followed/);
      expect(output.split('\n').filter((l) => l.startsWith('SKIP'))).toHaveLength(names.length);
    });

    it('are followed when named on the command line, and a file that is not JSON shows none of its text', async () => {
      const { output, results } = await validate([join(given, 'leak.json'), join(given, 'out')]);
      expect(results.map((r) => [r.source, r.outcome])).toEqual([
        [join(given, 'leak.json'), 'error'],
        [join(given, 'out', 'rec.json'), 'pass'],
      ]);
      expect(results[0]!.message).toMatch(/^not JSON/);
      expect(output).not.toContain('SECRE');
      expect(output).not.toContain("'S'");
    });
  });

  it.skipIf(process.platform === 'win32')('skips a named pipe found in a walk instead of blocking on it', async () => {
    const dir = join(tmp, 'fifo');
    mkdirSync(dir);
    execFileSync('mkfifo', [join(dir, 'pipe.json')]);
    writeFileSync(join(dir, 'ok.json'), JSON.stringify(envelope('http://n/rpc/v2/accounts/0x1')));
    const { results } = await validate([dir]);
    expect(results.map((r) => [r.source, r.outcome])).toEqual([
      [join(dir, 'pipe.json'), 'skip'],
      [join(dir, 'ok.json'), 'pass'],
    ]);
  });
});

describe('x-validate: hostile text in recordings', () => {
  let dir: string;
  const forged = 'PASS  getAccountV2 GET http://forged -> 200 (forged.json)';
  beforeAll(() => {
    dir = join(tmp, 'text');
    mkdirSync(dir);
    writeFileSync(
      // A file name cannot hold `/`: the forged line in it names no URL.
      join(dir, 'evil\nPASS  getAccountV2 GET forged -> 200 (forged.json)\u001b[2J.json'),
      JSON.stringify([
        // Matched (the URL parser drops the newline), shown raw today: not a URL that can be parsed.
        envelope(`/rpc/v2/accounts/0x1?\u001b[2J\n${forged}`),
        // Unmatched: method and URL appear in the SKIP line.
        envelope('/x\u2028y\u0085z\u009b31m', {}, 'GET\u001b]0;pwned\u0007'),
        // A failing body: the unknown key is in the path and message, the value in its preview.
        envelope('http://n/rpc/v2/accounts/0x1', { ...account, [`k\u001b[31m\n${forged}`]: '\u009b31m\u2028\u202e' }),
        envelope(`/rpc/v2/accounts/0x1?${'a'.repeat(100_000)}`),
        envelope('/x?q=&<>"\'', {}),
      ]),
    );
    writeFileSync(
      join(dir, 'body.har'),
      JSON.stringify({
        log: {
          version: '1.2',
          entries: [{ request: { method: 'GET', url: 'http://n/rpc/v2/accounts/0x1' }, response: { status: 200, content: { text: '\u001b[2J\u0000not JSON' } } }],
        },
      }),
    );
  });

  /** Characters a terminal acts on or a reader mistakes for line ends: C0 (but LF), DEL, C1, U+2028/2029, bidi controls. */
  // eslint-disable-next-line no-control-regex -- control characters are what it finds
  const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

  it('text: every control character is shown escaped, so no line can be forged, and long values are cut', async () => {
    const { output } = await validate([dir], 'text', true);
    expect(output).not.toMatch(CONTROL);
    const lines = output.trimEnd().split('\n');
    for (const line of lines) expect(line).toMatch(/^(PASS {2}|FAIL {2}|WARN {2}|SKIP {2}|ERROR |x-validate: | {6}\S)/);
    expect(lines.filter((l) => l.startsWith('PASS'))).toHaveLength(2);
    expect(lines.some((l) => /^PASS {2}getAccountV2 GET (http:\/\/)?forged/.test(l))).toBe(false);
    expect(output).toContain('\\x1b[2J\\nPASS  getAccountV2');
    expect(output).toContain('GET\\x1b]0;PWNED\\x07');
    expect(output).toContain('/x\\u2028y\\x85z\\x9b31m');
    expect(output).toContain('\\x9b31m\\u2028\\u202e');
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThan(2_000);
  });

  it('junit: well-formed XML 1.0 whatever the recording holds, & < > " \' escaped', async () => {
    const { output } = await validate([dir], 'junit', true);
    expect(xmlProblem(output)).toBeUndefined();
    expect(output).toContain('GET /x?q=&amp;&lt;&gt;&quot;&apos;');
    expect(output).toContain('\\x1b[2J');
    expect(output).not.toMatch(CONTROL);
  });

  it('json: parses back to the same text, with no raw C1, DEL, U+2028/2029 or bidi controls', async () => {
    const { output, results } = await validate([dir], 'json', true);
    expect(output).not.toMatch(CONTROL);
    const parsed = JSON.parse(output) as { results: { method?: string }[] };
    expect(parsed.results.map((r) => r.method)).toEqual(results.map((r) => r.method));
    expect(parsed.results.some((r) => r.method === 'GET\u001b]0;PWNED\u0007')).toBe(true);
  });
});
