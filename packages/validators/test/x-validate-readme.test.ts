/**
 * The README's CLI section: it lists every flag the CLI's parser defines (and no other), and its
 * examples run as written. The validation example is the package's one spawned run of the CLI: bash runs
 * it with a real `x-validate` on the PATH (a shim running src/cli/main.ts through tsx), and it prints
 * exactly the output the README shows and exits as it says, so the bin, its streams and its exit code are
 * checked end to end. The recording example, plain `x-validate` lines, runs in-process from a folder of
 * its own (see `runLines`): it records from the stubs of @x/testing (their URLs put in for the README's
 * fixed ports) and the recording validates.
 */
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodeStub, startPriceStub } from '@x/testing';
import { RECORD_OPTIONS, VALIDATE_OPTIONS } from '../src/cli/options.ts';
import { xValidate, type CliRun } from './cli-run.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const readme = readFileSync(join(root, 'packages', 'validators', 'README.md'), 'utf8');
const start = readme.indexOf('\n## x-validate (CLI)\n');
const end = readme.indexOf('\n## ', start + 1);
const section = readme.slice(start, end === -1 ? undefined : end);

/** The fenced blocks of the section: language and text. */
const blocks = [...section.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1]!, text: m[2]! }));
const shBlock = (needle: string): string => {
  const b = blocks.find((x) => x.lang === 'sh' && x.text.includes(needle));
  if (!b) throw new Error(`no sh block with ${needle} in the README's CLI section`);
  return b.text;
};

let dir: string;
let bin: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'x-validate-readme-'));
  bin = join(dir, 'bin');
  mkdirSync(bin);
  const shim = join(bin, 'x-validate');
  // The repository's tsconfig maps @x/* to the sources (the shim runs in another folder), so no build is needed.
  const tsx = JSON.stringify(join(root, 'node_modules', '.bin', 'tsx'));
  const tsconfig = JSON.stringify(join(root, 'tsconfig.json'));
  writeFileSync(shim, `#!/bin/sh\nexec ${tsx} --tsconfig ${tsconfig} ${JSON.stringify(join(root, 'packages', 'validators', 'src', 'cli', 'main.ts'))} "$@"\n`);
  chmodSync(shim, 0o755);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a README block with bash (`set -e`), `x-validate` on the PATH, in `cwd`. */
function sh(script: string, cwd: string): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile('bash', ['-ec', script], { cwd, env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

/** A line `[NAME=value ...] x-validate args...` with nothing a shell would quote, expand or redirect. */
const COMMAND_LINE = /^((?:[A-Za-z_]\w*=\S* +)*)x-validate((?: +\S+)*)$/;
const SHELL_SYNTAX = /['"\\$`;&|<>(){}*?[\]~!#]/;

/**
 * Runs a README block of `x-validate` lines in-process from `cwd`, as `bash -e` would run them: in
 * order, each with the variables assigned at its start as its environment, stopping at the first that
 * fails. A line of any other shape throws, so the example cannot outgrow this without the test saying so.
 */
async function runLines(script: string, cwd: string): Promise<CliRun> {
  const out: CliRun = { code: 0, stdout: '', stderr: '' };
  for (const line of script.split('\n').filter((l) => l.trim() !== '')) {
    const m = COMMAND_LINE.exec(line.trim());
    if (!m || SHELL_SYNTAX.test(line)) throw new Error(`runLines runs only "[NAME=value ...] x-validate args" lines; the README has: ${line}`);
    const env = Object.fromEntries(m[1]!.trim().split(/ +/).filter(Boolean).map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]));
    const r = await xValidate(m[2]!.trim().split(/ +/).filter(Boolean), env, cwd);
    out.stdout += r.stdout;
    out.stderr += r.stderr;
    out.code = r.code;
    if (r.code !== 0) break;
  }
  return out;
}

describe("README: x-validate's CLI section", () => {
  const defined = [...new Set([...Object.keys(VALIDATE_OPTIONS), ...Object.keys(RECORD_OPTIONS)])].sort();
  const tableRows = section.split('\n').filter((l) => l.startsWith('| `-'));

  it.each(defined)('lists --%s in a table of flags', (name) => {
    expect(tableRows.some((row) => row.includes(`\`--${name}`))).toBe(true);
  });

  it('lists the short flags (-h)', () => {
    const shorts = [...Object.values(VALIDATE_OPTIONS), ...Object.values(RECORD_OPTIONS)].flatMap((o) => ('short' in o ? [o.short] : []));
    for (const s of new Set(shorts)) expect(tableRows.some((row) => row.includes(`\`-${s}\``))).toBe(true);
  });

  it('names no flag the parser does not define', () => {
    const named = new Set([...section.matchAll(/(?<![\w-])--([a-z][a-z-]*)/g)].map((m) => m[1]!));
    expect([...named].filter((n) => !defined.includes(n))).toEqual([]);
  });

  it('states the exit codes 0, 1 and 2 and the environment variable of the price key', () => {
    for (const code of ['0', '1', '2']) expect(section).toMatch(new RegExp(`^\\| ${code} \\|`, 'm'));
    expect(section).toContain('SUPRA_PRICE_API_KEY');
  });

  it('the validation example prints what the README shows and exits 1', async () => {
    const script = shBlock('x-validate --strict answers.json');
    const shown = blocks[blocks.findIndex((b) => b.text === script) + 1]!;
    expect(shown.lang).toBe('text');
    expect(section).toContain('prints, and exits 1:');
    const cwd = join(dir, 'validate');
    mkdirSync(cwd);
    const r = await sh(script, cwd);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(shown.text);
    expect(r.code).toBe(1);
  });

  it('the recording example records from the stubs and the recording validates', async () => {
    const [node, price] = await Promise.all([startNodeStub({ port: 0 }), startPriceStub({ port: 0 })]);
    try {
      const script = shBlock('x-validate record --base-url http')
        .replaceAll('http://localhost:27000', node.url)
        .replaceAll('http://localhost:27001', price.url);
      const cwd = join(dir, 'record');
      mkdirSync(cwd);
      const r = await runLines(script, cwd);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(existsSync(join(cwd, 'recordings', '0x1.har'))).toBe(true);
      expect(r.stdout).toMatch(/x-validate: \d+ passed, 0 failed, 0 warned, 0 skipped, 0 unreadable/);
      const har = readFileSync(join(cwd, 'recordings', readdirSync(join(cwd, 'recordings'))[0]!), 'utf8');
      expect(har).not.toContain(price.apiKey);
      expect(price.requests.length).toBe(2);
    } finally {
      await Promise.all([node.close(), price.close()]);
    }
  });
});
