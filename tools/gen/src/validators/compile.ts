import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standalone from 'ajv/dist/standalone/index.js';
import { build, type Plugin } from 'esbuild';
import type { Schema } from './walk.ts';
import { ANNOTATIONS, mapSchema } from './walk.ts';
import type { Profile } from './transform.ts';
import { namePattern, profileSchema } from './transform.ts';
import { hexPatternKeyword, keyedUnionKeyword, namedPatternKeyword, nullOrKeyword, taggedFormsKeyword, taggedUnionKeyword, unsafeIntegerKeyword } from './keywords.ts';
import { RUNTIME_MODULE, RUNTIME_FILE, liveActionsKeyword, liveFormsKeyword } from './live-forms.ts';
import { readFileSync } from 'node:fs';
import { callsWithoutContext } from './calls.ts';
import { inlineSmallRefs } from './inline.ts';
import { compactErrorPushes } from './push-errors.ts';

/**
 * The largest schema (characters of JSON, once its own small parts are expanded) inlined where it is
 * referenced in the first-error variants: inline.ts says why, and why not more.
 */
const INLINE_CHARS = 1000;

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
 * compiles every schema exactly once, mutually recursive ones (StructTag, TypeTag) included. With
 * `inline`, the `$ref`s to small schemas are expanded in place (inline.ts); the others stay calls of the
 * referenced schema's function.
 */
export function profileSchemas(defs: Record<string, Schema>, profile: Profile, inline = false): Schema[] {
  const transformed: Record<string, Schema> = {};
  for (const [name, schema] of Object.entries(defs)) transformed[name] = namePattern(name, stripAnnotations(profileSchema(schema, profile, `$defs/${name}`)) as Schema);
  const expanded = inline ? inlineSmallRefs(transformed, INLINE_CHARS) : transformed;
  return Object.entries(expanded).map(([name, schema]) => {
    const linked = mapSchema(schema, (s) =>
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
    // A property is the value's own or absent (`data.name !== undefined && hasOwnProperty`): an inherited
    // one, from a non-enumerable member of Object.prototype or a prototype of the value's, never stands
    // in for a required property nor is validated. ajv then lists keys with `Object.keys`; see `ownKeyLoops`.
    ownProperties: true,
    // What is inlined is decided before ajv sees the schemas (inline.ts, by size): ajv's own rule would
    // inline every schema without a `$ref` left, a whole record once its small parts are inlined in it.
    inlineRefs: false,
    keywords: [keyedUnionKeyword, taggedUnionKeyword, taggedFormsKeyword, unsafeIntegerKeyword, hexPatternKeyword, namedPatternKeyword, nullOrKeyword, liveFormsKeyword, liveActionsKeyword],
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
  const schemas = profileSchemas(defs, variant.profile, !variant.allErrors);
  for (const forbidden of ['unevaluatedProperties', 'unevaluatedItems', '$dynamicRef', '$recursiveRef']) {
    if (JSON.stringify(schemas).includes(`"${forbidden}"`)) throw new Error(`${forbidden} is not supported by the generator`);
  }
  const ajv = createAjv(variant.allErrors);
  for (const schema of schemas) ajv.addSchema(schema);
  const refs: Record<string, string> = {};
  for (const name of Object.keys(defs)) refs[exportName(variant.name, name)] = ID_BASE + name;
  let code = nameFunctions(standaloneCode(ajv, refs));
  if (/\.evaluated\b|dynamicAnchors/.test(code)) throw new Error('standalone code tracks evaluated properties');
  code = compactErrorPushes(callsWithoutContext(importLiveRuntime(fastOwnChecks(dropUnusedContext(code)))));
  return { code, ajv };
}

/** `const obj0 = require("<runtime>").liveProfile;` as ajv writes it for the custom keywords' helpers. */
const LIVE_REQUIRE = new RegExp(String.raw`^const ([\w$]+) = require\("${RUNTIME_MODULE}"\)\.(\w+);$`, 'gm');

/**
 * The live runtime as an ES import, which esbuild links to the one module (a `require` would become a
 * CommonJS wrapper that a bundler cannot drop).
 */
function importLiveRuntime(code: string): string {
  const out = code.replace(LIVE_REQUIRE, (_m, local: string, name: string) => `import { ${name} as ${local} } from "${RUNTIME_MODULE}";`);
  if (out.includes(`require("${RUNTIME_MODULE}")`)) throw new Error('standalone code requires the keyword runtime in a way the generator does not know');
  return out;
}

/** A property read as ajv writes it: `data.name` or `data1["a-b"]`, and its name as a string literal. */
const READ = String.raw`\b(data\d*)(\.[\w$]+|\["(?:[^"\\]|\\.)*"\])`;
const KEY = String.raw`("(?:[^"\\]|\\.)*")`;

/** A loop over the keys of an object as ajv writes it with `ownProperties`. */
const LIST_KEYS = /for\(const key\d+ of Object\.keys\(/;

/**
 * ajv's own-property checks (`ownProperties: true`) made as fast as its plain reads, with the same
 * verdicts. ajv writes `data.k !== undefined && hasOwnProperty.call(data, "k")` (present) and
 * `(data.k === undefined) || (!(hasOwnProperty.call(data, "k")))` (absent): a call per property took
 * half again the time of a transactions page. For an object whose prototype is Object.prototype, a
 * defined `data.k` is its own unless Object.prototype has `k` (`"k" in Object.prototype`, a constant
 * key: an inline cache); only then, or for any other prototype (null, a class's, another realm's), is
 * hasOwnProperty called. The globals are read where they are used (TurboFan folds them; a module
 * variable made the checks slower than the calls). Keys ajv lists with `Object.keys` (an array per
 * object) are visited with `for...in` and kept when own (hasOwnProperty, which V8 runs from the
 * loop's enum cache). Throws when ajv's output has a form of the check the generator does not know,
 * rather than leave a slow or inexact one.
 */
function fastOwnChecks(code: string): string {
  const def = /^const (func\d+) = Object\.prototype\.hasOwnProperty;$/m.exec(code);
  if (!def) {
    if (code.includes('hasOwnProperty') || LIST_KEYS.test(code)) throw new Error('standalone code checks own properties in a way the generator does not know');
    return code;
  }
  const has = def[1]!;
  const plain = (data: string): string => `Object.getPrototypeOf(${data}) === Object.prototype`;
  const out = code
    .replace(new RegExp(String.raw`${READ} !== undefined && ${has}\.call\(\1, ${KEY}\)`, 'g'), (_m, data: string, prop: string, key: string) =>
      `${data}${prop} !== undefined && (${plain(data)} && !(${key} in Object.prototype) || ${has}.call(${data}, ${key}))`,
    )
    .replace(new RegExp(String.raw`\(${READ} === undefined\) \|\| \(!\(${has}\.call\(\1, ${KEY}\)\)\)`, 'g'), (_m, data: string, prop: string, key: string) =>
      `(${data}${prop} === undefined) || ((!(${plain(data)}) || ${key} in Object.prototype) && !${has}.call(${data}, ${key}))`,
    )
    .replace(/for\(const (key\d+) of Object\.keys\((data\d*)\)\)\{/g, (_m, key: string, data: string) => `for(const ${key} in ${data})if(${has}.call(${data}, ${key})){`);
  // Every call on the value left must be one of those written above (ajv also looks a key up in a
  // schema's own `properties`, which is no reading of the value; a tagged form's too: `schema1.taggedForms.user.properties`).
  const left = new RegExp(String.raw`(?<!\|\| |&& !|if\()${has}\.call\((?!schema\d+(?:\.[\w$]+)*\.properties, )`).exec(out) ?? LIST_KEYS.exec(out);
  if (left) throw new Error(`standalone code checks own properties in a way the generator does not know: …${out.slice(Math.max(0, left.index - 300), left.index + 200)}…`);
  return out;
}

const STRING = String.raw`"(?:[^"\\]|\\.)*"`;
/** `schemaPath: "#/properties/x/type", ` in an error object. */
const SCHEMA_PATH = new RegExp(String.raw`schemaPath\s*:\s*${STRING}\s*,\s*`, 'g');
/** What every call of a compiled function passes besides `instancePath`. */
const CALL_CONTEXT = new RegExp(
  String.raw`,\s*parentData\s*:\s*[\w$]+\s*,\s*parentDataProperty\s*:\s*(?:${STRING}|[\w$]+)\s*,\s*rootData\s*\}`,
  'g',
);
/** The same context passed on as it came, by a `$ref` at a schema's root (an `allOf` branch, say). */
const CALL_CONTEXT_SHORT = /\{\s*instancePath\s*,\s*parentData\s*,\s*parentDataProperty\s*,\s*rootData\s*\}/g;
/** The parameters every compiled function declares. */
const SIGNATURE_CONTEXT = /\{\s*instancePath\s*=\s*""\s*,\s*parentData\s*,\s*parentDataProperty\s*,\s*rootData\s*=\s*data\s*\}\s*=\s*\{\}/g;

/**
 * Drops what the compiled code carries for features the validators do not use: `schemaPath` in error
 * objects (the facade reports `instancePath`, keyword and params), and the `parentData`,
 * `parentDataProperty` and `rootData` every call passes (read only by `$data`, `removeAdditional` and
 * type coercion, none of which is on). A smaller bundle, and fewer allocations per call. Throws when
 * ajv's output has a form the generator does not know, rather than leave part of it.
 */
function dropUnusedContext(code: string): string {
  const out = code
    .replace(SCHEMA_PATH, '')
    .replace(CALL_CONTEXT, '}')
    .replace(CALL_CONTEXT_SHORT, '{instancePath}')
    .replace(SIGNATURE_CONTEXT, '{instancePath = ""} = {}');
  const left = /\b(schemaPath|parentData|parentDataProperty|rootData)\b/.exec(out);
  if (left) throw new Error(`standalone code uses ${left[1]} in a way the generator does not know: …${out.slice(Math.max(0, left.index - 300), left.index + 200)}…`);
  return out;
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
      // The keywords' run-time helpers: one module, so one profile switch for every variant.
      b.onResolve({ filter: new RegExp(`^${RUNTIME_MODULE}$`) }, () => ({ path: 'keyword-runtime', namespace: 'live' }));
      b.onLoad({ filter: /.*/, namespace: 'live' }, () => ({ contents: readFileSync(RUNTIME_FILE, 'utf8'), loader: 'js' }));
      b.onLoad({ filter: /.*/, namespace: 'ajv' }, (args) => ({
        contents: codes.get(args.path as Variant['name'])!,
        loader: 'js',
        resolveDir: AJV_RESOLVE_DIR,
      }));
    },
  };
  const entry = [...codes.keys()].map((v) => `export * from 'variant:${v}';`).concat(`export { liveProfile } from '${RUNTIME_MODULE}';`).join('\n');
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
