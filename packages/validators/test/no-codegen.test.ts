import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createContext, runInContext } from 'node:vm';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const entry = fileURLToPath(new URL('../src/index.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'validators-nocodegen-'));

/** What the bundled code is asked to do, as a script body with `v` the module. */
const SCRIPT = `
  const out = [];
  out.push(v.validateTransactionOutput({ Move: { gas_used: 5, events: [], vm_status: 'ok' } }).ok);
  out.push(v.validateTypeTag({ vector: { struct: { address: '0x1', module: 'm', name: 'n', type_args: ['u7'] } } }).issues[0].path);
  out.push(v.validateAccountData({ sequence_number: 2 ** 60, authentication_key: '0x1' }).issues[0].keyword);
  out.push(v.validateResponse('getAccountV1', 200, null, { strict: true }).ok);
  out.push(v.validateResponse('listTransactionsV2', 200, { record: [], x: 1 }, { strict: true, allErrors: true }).issues[0].path);
  out.push(v.validateMoveValue({ Bytes: '0x0' }).issues[0].keyword);
  let deep = 'u8';
  for (let i = 0; i < 100000; i++) deep = { vector: deep };
  out.push(v.validateTypeTag(deep).issues[0].keyword);
  let blocked = false;
  try { new Function('return 1'); } catch (e) { blocked = e instanceof EvalError; }
  out.push(blocked);
`;
const EXPECTED = [true, '/vector/struct/type_args/0', 'unsafeInteger', true, '/x', 'pattern', 'maxDepth', true];

beforeAll(async () => {
  for (const format of ['esm', 'iife'] as const) {
    await build({
      entryPoints: [entry],
      bundle: true,
      format,
      globalName: format === 'iife' ? 'v' : undefined,
      platform: 'neutral',
      outfile: join(dir, format === 'esm' ? 'validators.mjs' : 'validators.js'),
      logLevel: 'silent',
    });
  }
  writeFileSync(
    join(dir, 'run.mjs'),
    `import * as v from './validators.mjs';\n${SCRIPT}\nprocess.stdout.write(JSON.stringify(out));\n`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the generated validators need no code generation from strings', () => {
  it('run in a Node process started with --disallow-code-generation-from-strings', () => {
    const stdout = execFileSync(process.execPath, ['--disallow-code-generation-from-strings', join(dir, 'run.mjs')], {
      encoding: 'utf8',
    });
    expect(JSON.parse(stdout)).toEqual(EXPECTED);
  });

  it('run in a vm context with codeGeneration.strings = false', () => {
    const context = createContext({}, { codeGeneration: { strings: false, wasm: false } });
    runInContext(readFileSync(join(dir, 'validators.js'), 'utf8'), context);
    const out = runInContext(`(() => { ${SCRIPT}; return JSON.stringify(out); })()`, context) as string;
    expect(JSON.parse(out)).toEqual(EXPECTED);
  });
});
