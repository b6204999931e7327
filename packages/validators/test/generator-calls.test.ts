/**
 * How the compiled functions call each other (tools/gen/src/validators/calls.ts) and what is inlined
 * (inline.ts): a call passes the value only, the caller gives the callee's errors their path, and the
 * generated code stays small enough to publish (issue 38: 6.6 MB when every acyclic `$ref` was inlined).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../../tools/gen/src/specs.ts';
import { callsWithoutContext } from '../../../tools/gen/src/validators/calls.ts';
import { VARIANTS, bundleVariants, standaloneVariant } from '../../../tools/gen/src/validators/compile.ts';
import { inlineSmallRefs } from '../../../tools/gen/src/validators/inline.ts';
import { validateAccountStatementV2, validateTypeTag } from '../src/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'validators-calls-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Compiled = ((v: unknown) => boolean) & { errors?: { instancePath: string; keyword: string }[] | null };

// Large enough that the inlining cap (1,000 characters of JSON) leaves `Item` a call.
const item = { type: 'object', required: ['n'], properties: Object.fromEntries([['n', { type: 'integer' }], ...Array.from({ length: 40 }, (_, i) => [`field_${i}_with_a_long_name`, { type: 'string' }])]) };
const defs = {
  Item: item,
  Page: { type: 'object', required: ['record'], properties: { record: { type: 'array', items: { $ref: '#/$defs/Item' } }, tag: { $ref: '#/$defs/Tag' } } },
  Tag: { type: 'string', minLength: 1 },
};

async function compiledModule(): Promise<Record<string, Compiled>> {
  const bundle = await bundleVariants(new Map(VARIANTS.map((v) => [v.name, standaloneVariant(v, defs).code])), ROOT);
  const file = join(dir, `bundle-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(file, bundle);
  return (await import(pathToFileURL(file).href)) as Record<string, Compiled>;
}

describe('calls between compiled functions', () => {
  it('pass the value only, and give the callee errors their full path, in every variant', async () => {
    const m = await compiledModule();
    const bad = { record: [{ n: 1 }, { n: 'x' }, {}] };
    for (const v of VARIANTS) {
      const page = m[`${v.name}$Page`]!;
      expect(page(bad), v.name).toBe(false);
      const paths = page.errors!.map((e) => `${e.instancePath} ${e.keyword}`);
      expect(paths, v.name).toEqual(v.allErrors ? ['/record/1/n type', '/record/2 required'] : ['/record/1/n type']);
      // Twice in a row: the error objects are the call's own, prefixed once.
      expect(page(bad)).toBe(false);
      expect(page.errors![0]!.instancePath).toBe('/record/1/n');
      expect(page({ record: [{ n: 1 }] }), v.name).toBe(true);
    }
  });

  it('keeps the large schema a call, inlines the small one', () => {
    const code = standaloneVariant(VARIANTS[0]!, defs).code;
    expect(code).toMatch(/if \(!lenient\$Item\(data\d*\[i\d+\]\)\) \{/);
    expect(code).not.toMatch(/!lenient\$Tag\(/);
    expect(code).not.toMatch(/[\w\]]\([^()\n]*,\s*\{\s*instancePath\s*:/); // no context object passed to a call
  });

  it('refuses a call of a form it does not know, rather than leave a context object behind', () => {
    const code = 'function a$X(data, {instancePath = ""} = {}) {\nreturn b$Y(data, {instancePath:instancePath+"/x", other: 1});\n}\n';
    expect(() => callsWithoutContext(code)).toThrow(/calls a function in a way the generator does not know/);
  });

  it('inlines by size, never a schema of a cycle', () => {
    const cyclic = { A: { type: 'array', items: { $ref: '#/$defs/A' } }, B: { properties: { a: { $ref: '#/$defs/A' }, c: { $ref: '#/$defs/C' } } }, C: { type: 'string' } };
    const out = inlineSmallRefs(cyclic, 1000);
    expect(out.B).toEqual({ properties: { a: { $ref: '#/$defs/A' }, c: { type: 'string' } } });
    expect(inlineSmallRefs(cyclic, 5).B).toEqual(cyclic.B);
  });
});

describe('the generated validators', () => {
  it('report nested paths through calls and recursion', () => {
    const r = validateAccountStatementV2({ record: [{}] }, { allErrors: true });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues.map((i) => i.path)).toContain('/record/0/authenticator');
    const t = validateTypeTag({ vector: { vector: { struct: { address: '0x1', module: 'm', name: 'n', type_args: [7] } } } });
    expect(t.ok).toBe(false);
    if (!t.ok) expect(t.issues[0]!.path).toBe('/vector/vector/struct/type_args/0');
  });
});
