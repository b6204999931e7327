import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const index = fileURLToPath(new URL('../src/index.ts', import.meta.url));
const standard = fileURLToPath(new URL('../src/standard.ts', import.meta.url));

async function bundle(names: string[], entry = index): Promise<string> {
  const result = await build({
    stdin: { contents: `import { ${names.join(', ')} } from ${JSON.stringify(entry)};\nconsole.log(${names.join(', ')});`, loader: 'js', resolveDir: '.' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

const functions = (code: string) => [...code.matchAll(/function (\w+\$\w+)\(/g)].map((m) => m[1]).sort();

describe('tree-shaking (sizes are measured in the report, not asserted here)', () => {
  it('an app importing only validateTransactionOutput bundles only what that needs', async () => {
    const code = await bundle(['validateTransactionOutput']);
    const kept = functions(code);
    // The live reading's event guid and sequence number refer to AccountAddress and DecimalString.
    const needed = ['TransactionOutput', 'MoveTransactionOutput', 'EvmTransactionOutput', 'EvmTransferOperation', 'Event', 'TxExecutionStatus', 'AccountAddress', 'DecimalString'];
    for (const variant of ['lenient', 'strict', 'lenientAll', 'strictAll']) expect(kept).toContain(`${variant}$TransactionOutput`);
    // The first-error variants inline the small schemas TransactionOutput holds (tools/gen/src/validators/inline.ts).
    for (const name of kept) expect(needed).toContain(name?.split('$')[1]);
    expect(code).not.toMatch(/AccountData|TypeTag|MoveValue|Candle|getAccountV1/);
    // Only the patterns of the live reading's event guid and sequence number (hex digits, decimal).
    const patterns = [...code.matchAll(/new RegExp\("([^"]*)"/g)].map((m) => m[1]);
    expect(patterns).toContain('^[0-9]+$');
    for (const p of patterns) expect(['^[0-9]+$', '^(0x)?[0-9a-fA-F]*$', '^[0-9a-fA-F]*$']).toContain(p);
  });

  it('keeps only the regular expressions a validator uses', async () => {
    const code = await bundle(['isTradingPair']);
    expect(functions(code)).toEqual(['lenient$TradingPair', 'lenientAll$TradingPair', 'strict$TradingPair', 'strictAll$TradingPair']);
    // one per compiled variant, none of the other patterns
    expect(code.match(/new RegExp/g)).toHaveLength(4);
    expect(code).not.toContain('0-9a-fA-F');
  });

  it('keeps the one regular expression of the hex checks once per variant', async () => {
    const code = await bundle(['isHash', 'isAccountAddress', 'isAddress', 'isHexString']);
    expect(code.match(/new RegExp/g)).toHaveLength(4);
  });

  it('the main entry carries nothing of @x/validators/standard', async () => {
    const result = await build({ stdin: { contents: `export * from ${JSON.stringify(index)};`, loader: 'js', resolveDir: '.' }, bundle: true, write: false, format: 'esm', platform: 'neutral', logLevel: 'silent' });
    const code = result.outputFiles[0]!.text;
    for (const mark of ['~standard', 'vendor', 'draft-2020-12', '$defs', 'Current expected sequence number']) expect(code).not.toContain(mark);
  });

  it('a Standard Schema bundles its own compiled functions and JSON Schema forms only, not the converter', async () => {
    const code = await bundle(['AccountData'], standard);
    // AccountData's four functions; Hash is inlined in the first-error ones and called by the others
    expect(functions(code)).toEqual(['lenient$AccountData', 'lenientAll$AccountData', 'lenientAll$Hash', 'strict$AccountData', 'strictAll$AccountData', 'strictAll$Hash']);
    // its JSON Schemas come converted by pnpm gen (JSON text per target): no definitions of json-schemas.ts
    // and none of the converter (its list of keywords draft-07 lacks), which standardSchema() brings
    const definitions = [...code.matchAll(/(?:var|const|let) (\w+\$(?:documented|documentedStrict|live|liveStrict)|(?:documented|documentedStrict|live|liveStrict)\$\w+) =/g)].map((m) => m[1]);
    expect(definitions).toEqual([]);
    expect(code).toContain('http://json-schema.org/draft-07/schema#');
    expect(code).not.toContain('unevaluatedProperties');
    expect(code).not.toMatch(/TransactionOutput|TypeTag|Candle|getAccountV1|readings/);
  });
});
