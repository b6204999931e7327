import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standalone from 'ajv/dist/standalone/index.js';
import { build, type Plugin } from 'esbuild';
import type { Schema } from './walk.ts';
import { ANNOTATIONS, mapSchema } from './walk.ts';
import type { Profile } from './transform.ts';
import { profileSchema } from './transform.ts';
import { keyedUnionKeyword, unsafeIntegerKeyword } from './keywords.ts';

// ajv/dist/standalone is CommonJS (`module.exports = standaloneCode`, plus `.default`); its types only
// declare the default export, which NodeNext resolution sees under `.default`.
const standaloneCode = standalone.default;

/** Base of the `$id` each schema gets for compiling (`urn:x-validators:AccountData`). */
const ID_BASE = 'urn:x-validators:';

/** One compiled flavour of the validators: a profile, stopping at the first error or collecting all. */
export type Variant = { name: 'lenient' | 'strict' | 'lenientAll' | 'strictAll'; profile: Profile; allErrors: boolean };

export const VARIANTS: readonly Variant[] = [
  { name: 'lenient', profile: 'lenient', allErrors: false },
  { name: 'strict', profile: 'strict', allErrors: false },
  { name: 'lenientAll', profile: 'lenient', allErrors: true },
  { name: 'strictAll', profile: 'strict', allErrors: true },
];

/** The function an ajv instance of `standaloneVariant` compiled for a schema. */
export function compiledSchema(ajv: Ajv2020, name: string): (data: unknown) => boolean {
  const fn = ajv.getSchema(ID_BASE + name);
  if (!fn) throw new Error(`no compiled schema ${name}`);
  return (data) => fn(data) as boolean;
}

/** Name of the function `ajv.js` exports for a schema in a variant: `lenient$AccountData`. */
export function exportName(variant: Variant['name'], def: string): string {
  return `${variant}$${def}`;
}

/**
 * The schemas of one profile, each its own resource (`$id`) with `$ref`s to the others' ids, so ajv
 * compiles every schema exactly once, mutually recursive ones (StructTag, TypeTag) included.
 */
export function profileSchemas(defs: Record<string, Schema>, profile: Profile): Schema[] {
  return Object.entries(defs).map(([name, schema]) => {
    const transformed = stripAnnotations(profileSchema(schema, profile, `$defs/${name}`));
    const linked = mapSchema(transformed, (s) =>
      typeof s.$ref === 'string' ? { ...s, $ref: ID_BASE + s.$ref.replace('#/$defs/', '') } : s,
    ) as Schema;
    return { $id: ID_BASE + name, ...linked };
  });
}

/** Annotations change no result; ajv would copy them into the code with the schema objects it references. */
function stripAnnotations(schema: unknown): unknown {
  return mapSchema(schema, (s) => {
    const out: Schema = {};
    for (const [k, v] of Object.entries(s)) if (!ANNOTATIONS.has(k) && k !== 'format') out[k] = v;
    return out;
  });
}

/** The ajv instance a variant is compiled with. */
export function createAjv(allErrors: boolean): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors,
    // Messages are written by the facade from keyword and params: shorter code, one wording.
    messages: false,
    code: { source: true, esm: true, lines: true, optimize: true },
    strict: true,
    // The keyed encoding puts `properties` next to a type-independent keyword on purpose.
    strictTypes: false,
    allowUnionTypes: true,
    // `format` in these specs documents integer widths and int64 timestamps; ranges are checked by
    // minimum/maximum and `unsafeInteger`, so format assertions are off.
    validateFormats: false,
    // Properties are looked up as own properties: `{"constructor": 1}` is not mistaken for a prototype key.
    ownProperties: true,
    // Every `$ref` calls the function of its schema: each schema is compiled once and shared.
    inlineRefs: false,
    keywords: [keyedUnionKeyword, unsafeIntegerKeyword],
  });
  // Ajv2020 forces `unevaluated` and `dynamicRef` on. They make every function track evaluated
  // properties (`validateN.evaluated`, top-level assignments that defeat tree-shaking) and pass
  // dynamic anchors. The documents use neither `unevaluated*` nor `$dynamicRef` (checked in
  // `standaloneVariant`), so switching both off before compiling changes no result.
  const opts = ajv.opts as { unevaluated?: boolean; dynamicRef?: boolean };
  opts.unevaluated = false;
  opts.dynamicRef = false;
  return ajv;
}

/** ajv's standalone ESM code for one variant, exporting one function per schema. */
export function standaloneVariant(variant: Variant, defs: Record<string, Schema>): { code: string; ajv: Ajv2020 } {
  const schemas = profileSchemas(defs, variant.profile);
  for (const forbidden of ['unevaluatedProperties', 'unevaluatedItems', '$dynamicRef', '$recursiveRef']) {
    if (JSON.stringify(schemas).includes(`"${forbidden}"`)) throw new Error(`${forbidden} is not supported by the generator`);
  }
  const ajv = createAjv(variant.allErrors);
  for (const schema of schemas) ajv.addSchema(schema);
  const refs: Record<string, string> = {};
  for (const name of Object.keys(defs)) refs[exportName(variant.name, name)] = ID_BASE + name;
  const code = nameFunctions(standaloneCode(ajv, refs));
  if (/\.evaluated\b|dynamicAnchors/.test(code)) throw new Error('standalone code tracks evaluated properties');
  return { code, ajv };
}

/**
 * Gives each compiled function the name it is exported as (`function lenient$AccountData(...)` instead
 * of `validate53`), so a schema added to a spec does not renumber every function of the output.
 */
function nameFunctions(code: string): string {
  const names = new Map<string, string>();
  const aliases: string[] = [];
  let out = code.replace(/^export const (\S+) = (validate\d+);\n/gm, (_m, exported: string, fn: string) => {
    const first = names.get(fn);
    if (first) aliases.push(`export const ${exported} = ${first};`);
    else names.set(fn, exported);
    return '';
  });
  out = out.replace(/\bvalidate\d+\b/g, (n) => names.get(n) ?? n);
  if (/\bvalidate\d+\b/.test(out)) throw new Error('standalone code has a function that is not exported');
  return `${out}\nexport { ${[...names.values()].join(', ')} };\n${aliases.join('\n')}\n`;
}

const require = createRequire(import.meta.url);

/** Directory from which the `require("ajv/dist/runtime/...")` calls of the standalone code resolve. */
const AJV_RESOLVE_DIR = dirname(dirname(require.resolve('ajv/package.json')));

/**
 * Bundles the standalone code of every variant into one real ES module (ajv's `esm` output still
 * `require`s its runtime helpers such as ucs2length and equal; esbuild inlines them). Top-level regular
 * expressions and helper look-ups are marked pure so that an app's bundler drops the ones it does not use.
 */
export async function bundleVariants(codes: Map<Variant['name'], string>, cwd: string): Promise<string> {
  const plugin: Plugin = {
    name: 'ajv-standalone',
    setup(b) {
      b.onResolve({ filter: /^variant:/ }, (args) => ({ path: args.path.slice('variant:'.length), namespace: 'ajv' }));
      b.onLoad({ filter: /.*/, namespace: 'ajv' }, (args) => ({
        contents: codes.get(args.path as Variant['name'])!,
        loader: 'js',
        resolveDir: AJV_RESOLVE_DIR,
      }));
    },
  };
  const entry = [...codes.keys()].map((v) => `export * from 'variant:${v}';`).join('\n');
  const result = await build({
    stdin: { contents: entry, loader: 'js', resolveDir: cwd, sourcefile: 'ajv-validators.js' },
    absWorkingDir: cwd,
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    target: 'es2020',
    treeShaking: true,
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'silent',
    plugins: [plugin],
  });
  if (result.errors.length > 0) throw new Error(result.errors.map((e) => e.text).join('\n'));
  const out = result.outputFiles[0]!.text;
  // Comments naming the bundled input files carry pnpm store paths; they are not needed.
  return out
    .split('\n')
    .filter((line) => !/^\/\/ (ajv:|node_modules\/|<stdin>|ajv-validators\.js)/.test(line))
    .join('\n')
    .replace(/^(var|const|let) (pattern\d+) = new RegExp\(/gm, '$1 $2 = /* @__PURE__ */ new RegExp(')
    .replace(/^(var|const|let) (func\d+) = (require_\w+)\(\)\.default;$/gm, '$1 $2 = /* @__PURE__ */ (() => $3().default)();')
    .replace(/^var (require_\w+) = __commonJS\(/gm, 'var $1 = /* @__PURE__ */ __commonJS(');
}
