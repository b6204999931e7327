/** The generator's compile + bundle step (tools/gen/src/validators/compile.ts) on schemas that need ajv's runtime helpers. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../../tools/gen/src/specs.ts';
import { VARIANTS, bundleVariants, standaloneVariant } from '../../../tools/gen/src/validators/compile.ts';

const dir = mkdtempSync(join(tmpdir(), 'validators-bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const defs = {
  Short: { type: 'string', minLength: 2 }, // ajv: require("ajv/dist/runtime/ucs2length")
  Deep: { enum: [{ a: 1 }, 'x'] }, // ajv: require("ajv/dist/runtime/equal")
  Plain: { type: 'integer' },
};

describe('bundling ajv standalone code', () => {
  it('inlines the runtime helpers ajv `require`s into a real ES module, tree-shakable', async () => {
    const codes = new Map(VARIANTS.map((v) => [v.name, standaloneVariant(v, defs).code]));
    expect(codes.get('lenient')).toMatch(/require\("ajv\/dist\/runtime\/(ucs2length|equal)"\)/);
    const bundle = await bundleVariants(codes, ROOT);
    expect(bundle).not.toMatch(/(^|[^\w$'"])require\(/m); // no call; ajv's helpers carry the text 'require(...)' as data
    expect(bundle).toMatch(/^var func\d+ = \/\* @__PURE__ \*\/ \(\(\) => require_ucs2length\(\)\.default\)\(\);$/m);
    expect(bundle).not.toContain(ROOT);
    const file = join(dir, 'bundle.mjs');
    writeFileSync(file, bundle);

    const m = (await import(pathToFileURL(file).href)) as Record<string, (v: unknown) => boolean>;
    expect(m.lenient$Short!('😀')).toBe(false); // one code point, two UTF-16 units
    expect(m.lenient$Short!('😀😀')).toBe(true);
    expect(m.strictAll$Deep!({ a: 1 })).toBe(true);
    expect(m.strictAll$Deep!({ a: 2 })).toBe(false);

    const app = await build({
      stdin: { contents: `import { lenient$Plain } from ${JSON.stringify(file)}; console.log(lenient$Plain(1));`, loader: 'js', resolveDir: dir },
      bundle: true,
      write: false,
      format: 'esm',
      logLevel: 'silent',
    });
    const text = app.outputFiles[0]!.text;
    expect(text).toContain('lenient$Plain');
    expect(text).not.toMatch(/ucs2length|fast-deep-equal|Short|Deep/);
  });

  it('is deterministic', async () => {
    const once = async () => bundleVariants(new Map(VARIANTS.map((v) => [v.name, standaloneVariant(v, defs).code])), ROOT);
    expect(await once()).toBe(await once());
  });
});
