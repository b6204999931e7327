import type { Spec } from '../specs.ts';
import { header } from '../files.ts';
import type { NamedSchema, OperationResponses, ResponseRule } from './collect.ts';
import type { Variant } from './compile.ts';
import { exportName } from './compile.ts';

/** Where the generated validator modules go. */
export const OUT_DIR = 'packages/validators/src/generated';

const BOTH_SPECS = 'specs/node-rpc.openapi.yaml and specs/price-history.openapi.yaml';

/** A TSDoc block from lines (an empty string is a blank line). */
function tsdoc(lines: string[], indent = ''): string {
  const body = lines.map((l) => `${indent} *${l === '' ? '' : ` ${l.replace(/\*\//g, '*\\/')}`}`);
  return `${indent}/**\n${body.join('\n')}\n${indent} */\n`;
}

function describe(schema: NamedSchema): string[] {
  const raw = schema.spec.doc.components.schemas[schema.specName] ?? {};
  const lines: string[] = [];
  if (typeof raw.description === 'string') lines.push(...raw.description.trim().split('\n'));
  if (raw.deprecated === true) lines.push('Part of the deprecated v1 API.');
  return lines;
}

function where(schema: NamedSchema): string {
  const renamed = schema.name === schema.specName ? '' : ` (exported as \`${schema.name}\`)`;
  return `\`${schema.specName}\` of ${schema.spec.file}${renamed}`;
}

/** `ajv.js`: the bundled, ajv-compiled functions of every variant. */
export function emitAjvModule(bundle: string): string {
  return `${header(BOTH_SPECS)}// ajv standalone code (JSON Schema 2020-12), bundled with esbuild. Profiles: lenient, strict;
// "All" variants collect every error. Functions are named <variant>$<schema>.
${bundle.endsWith('\n') ? bundle : `${bundle}\n`}`;
}

/** `ajv.d.ts`: the types of `ajv.js`. */
export function emitAjvDeclarations(defs: string[], variants: readonly Variant[]): string {
  const lines = [`${header(BOTH_SPECS)}import type { CompiledFunction } from '../compiled.js';`, ''];
  for (const v of variants) for (const d of defs) lines.push(`export declare const ${exportName(v.name, d)}: CompiledFunction;`);
  lines.push('/** Which reading the compiled functions check: the live one while `live` is true (set by `validate.ts`). */');
  lines.push('export declare const liveProfile: { live: boolean };');
  return `${lines.join('\n')}\n`;
}

/** `schemas.ts`: the four compiled functions of every schema, one object per schema. */
export function emitSchemasModule(defs: string[], variants: readonly Variant[]): string {
  const imports = defs.flatMap((d) => variants.map((v) => exportName(v.name, d)));
  const out = [
    header(BOTH_SPECS),
    `import type { SchemaValidators } from '../compiled.js';`,
    `import {\n${imports.map((i) => `  ${i},`).join('\n')}\n} from './ajv.js';`,
    '',
  ];
  for (const d of defs) {
    const fields = variants.map((v) => `${v.name}: ${exportName(v.name, d)}`).join(', ');
    out.push(`export const ${d}: SchemaValidators = { name: '${d}', ${fields} };`);
  }
  return `${out.join('\n')}\n`;
}

/** `types.ts`: the type of every schema under its exported name. */
export function emitTypesModule(schemas: NamedSchema[], node: Spec, price: Spec, nodeTypes: string, priceTypes: string): string {
  const list = (spec: Spec) =>
    schemas
      .filter((s) => s.spec === spec)
      .map((s) => (s.name === s.specName ? `  ${s.name},` : `  ${s.specName} as ${s.name},`))
      .join('\n');
  return `${header(BOTH_SPECS)}export type {
${list(node)}
} from '${nodeTypes}';
export type {
${list(price)}
} from '${priceTypes}';
`;
}

/** `validators.ts`: `validateX`, `isX` and `assertX` for every schema, with TSDoc. */
export function emitValidatorsModule(schemas: NamedSchema[], samples: Map<string, unknown | undefined>, literal: (v: unknown) => string): string {
  const out = [
    header(BOTH_SPECS),
    `import { type ValidateOptions, type ValidationResult, assertValid, isValid, runValidator } from '../validate.js';`,
    `import * as schemas from './schemas.js';`,
    `import type {\n${schemas.map((s) => `  ${s.name},`).join('\n')}\n} from './types.js';`,
    '',
  ];
  for (const s of schemas) {
    const n = s.name;
    const sample = samples.get(n);
    const text = sample === undefined ? undefined : literal(sample);
    const arg = text !== undefined && text.length <= 90 ? text : 'JSON.parse(body)';
    const about = describe(s);
    out.push(
      tsdoc([
        `Validates a value against the schema ${where(s)}.`,
        ...(about.length ? ['', ...about] : []),
        '',
        'Returns `{ ok: true, value }` or `{ ok: false, issues }`, each issue a JSON pointer `path`, a `message`',
        'and the failing `keyword`. Lenient by default (unknown properties allowed); `{ strict: true }` reports',
        'them. Stops at the first issue unless `{ allErrors: true }` (at most `maxIssues`, default 100).',
        '',
        '@example',
        '```ts',
        `import { validate${n} } from '@x/validators';`,
        `const result = validate${n}(${arg});`,
        `if (result.ok) console.log(result.value); // typed as ${n}`,
        'else for (const issue of result.issues) console.error(`${issue.path}: ${issue.message}`);',
        '```',
      ]) +
        `export function validate${n}(value: unknown, options?: ValidateOptions): ValidationResult<${n}> {\n` +
        `  return runValidator<${n}>(schemas.${n}, value, options);\n}\n`,
      tsdoc([
        `Whether a value is a valid \`${n}\` (schema ${where(s)});`,
        'with `{ strict: true }` unknown properties make it invalid.',
        '',
        '@example',
        '```ts',
        `import { is${n} } from '@x/validators';`,
        `if (is${n}(value)) console.log(value); // narrowed to ${n}`,
        '```',
      ]) +
        `export function is${n}(value: unknown, options?: ValidateOptions): value is ${n} {\n` +
        `  return isValid(schemas.${n}, value, options);\n}\n`,
      tsdoc([
        `Asserts that a value is a valid \`${n}\` (schema ${where(s)}); otherwise throws a`,
        '`ValidationError` whose `issues` list the problems and whose message names their paths.',
        '',
        '@example',
        '```ts',
        `import { assert${n} } from '@x/validators';`,
        `assert${n}(${arg}, { strict: true });`,
        '```',
      ]) +
        `export function assert${n}(value: unknown, options?: ValidateOptions): asserts value is ${n} {\n` +
        `  assertValid(schemas.${n}, value, options);\n}\n`,
    );
  }
  return out.join('\n');
}

function ruleCode(rule: ResponseRule): string {
  return rule.kind === 'any' ? 'null' : `{ schema: schemas.${rule.def}, nullable: ${String(rule.nullable)} }`;
}

function ruleType(rule: ResponseRule): string {
  if (rule.kind === 'any') return 'unknown';
  if (!rule.exported) return rule.arrayOf ? `${rule.arrayOf}[]` : 'unknown';
  return rule.nullable ? `${rule.def} | null` : rule.def;
}

/** `responses.ts`: what every documented response of every operation demands, and the body types. */
export function emitResponsesModule(operations: OperationResponses[], schemaNames: string[]): string {
  const used = [
    ...new Set(operations.flatMap((o) => o.responses.flatMap(([, r]) => (r.kind !== 'schema' ? [] : r.exported ? [r.def] : r.arrayOf ? [r.arrayOf] : [])))),
  ].filter((n) => schemaNames.includes(n));
  const out = [
    header(BOTH_SPECS),
    `import type { ResponseRule } from '../compiled.js';`,
    `import * as schemas from './schemas.js';`,
    `import type {\n${used.map((n) => `  ${n},`).join('\n')}\n} from './types.js';`,
    '',
    tsdoc(['Body type of every documented response, by operationId and status (`default`: any other status).']) +
      'export interface ResponseBodies {',
  ];
  // A deprecated operation names its version (`getAccountV2`: v2) and the newest version of its spec.
  const versionOf = (id: string): number | undefined => {
    const m = /V(\d+)$/.exec(id);
    return m ? Number(m[1]) : undefined;
  };
  const newest = new Map<OperationResponses['spec'], number>();
  for (const op of operations) newest.set(op.spec, Math.max(newest.get(op.spec) ?? 0, versionOf(op.operationId) ?? 0));
  const deprecation = (op: OperationResponses): string => {
    const v = versionOf(op.operationId);
    const latest = newest.get(op.spec) ?? 0;
    if (v === undefined) return '@deprecated';
    return `@deprecated Part of the deprecated v${v} API${latest > v ? `; use v${latest}` : ''}.`;
  };
  for (const op of operations) {
    const doc = [`\`${op.operationId}\` of ${op.spec.file}.`, ...(op.deprecated ? [deprecation(op)] : [])];
    out.push(tsdoc(doc, '  ').trimEnd());
    out.push(`  ${op.operationId}: { ${op.responses.map(([st, r]) => `'${st}': ${ruleType(r)}`).join('; ')} };`);
  }
  out.push('}', '', '/** Every operationId of both specs. */', 'export type OperationId = keyof ResponseBodies;', '');
  out.push(
    tsdoc([
      'What every documented response demands of its body, by operationId and status (exact code, `NXX`',
      'range or `default`): `null` accepts any body.',
    ]) + 'export const responses: { readonly [Op in OperationId]: Readonly<Record<string, ResponseRule>> } = {',
  );
  for (const op of operations) {
    out.push(`  ${op.operationId}: { ${op.responses.map(([st, r]) => `'${st}': ${ruleCode(r)}`).join(', ')} },`);
  }
  out.push('};', '');
  return out.join('\n');
}
