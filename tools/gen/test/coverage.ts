/**
 * Compares a parsed OpenAPI 3.1 document against a transcribed API document (`documents.ts`) and lists
 * every difference as one line. `coverageProblems(spec, table)` is `[]` when the spec states everything
 * the document states.
 *
 * Parse the spec with `yaml`'s `{ intAsBigInt: true }`: the u64 maximum 18446744073709551615 is not a
 * JavaScript number, and a plain parse rounds it to 2^64 without a word. Integers given as `number` are
 * accepted when they are safe integers; an unsafe one is reported as inexact.
 */
import type { DocType, DocumentTable, EnumRow, Field, OperationRow, ParamRow, RecordRow, UnionRow } from './documents.ts';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const obj = (v: unknown): Obj => (isObj(v) ? v : {});
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Human-readable form of a documented type, for messages and test titles. */
export function showType(t: DocType): string {
  switch (t.kind) {
    case 'integer': return t.label;
    case 'string': return t.pattern ? `string matching ${t.pattern}` : (t.label ?? 'string');
    case 'ref': return t.name;
    case 'array': return `${showType(t.of)}[]`;
    case 'tuple': return `[${t.items.map(showType).join(', ')}]`;
    case 'nullable': return `null | ${showType(t.of)}`;
    case 'inline': return `{${t.fields.map(([n, ft]) => `${n}: ${showType(ft)}`).join(', ')}}`;
    default: return t.kind;
  }
}

const show = (v: unknown): string =>
  v === undefined ? '(none)' : typeof v === 'bigint' ? String(v) : JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? String(x) : x));

function lookup(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let cur: unknown = doc;
  for (const part of ref.slice(2).split('/')) cur = obj(cur)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return cur;
}

/** Follows `$ref`s; keywords next to a `$ref` (3.1 allows them) are laid over the target. */
export function resolve(doc: unknown, schema: unknown, seen = new Set<string>()): Obj {
  if (!isObj(schema) || typeof schema.$ref !== 'string') return obj(schema);
  if (seen.has(schema.$ref)) return {};
  seen.add(schema.$ref);
  const { $ref, ...siblings } = schema;
  return { ...resolve(doc, lookup(doc, $ref), seen), ...siblings };
}

const types = (s: Obj): string[] => (Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : []);
const typeIs = (s: Obj, t: string): boolean => types(s).length === 1 && types(s)[0] === t;

/** An integer keyword as an exact bigint; 'inexact' for a number JavaScript cannot hold exactly. */
function exact(v: unknown): bigint | 'inexact' | undefined {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return Number.isSafeInteger(v) ? BigInt(v) : 'inexact';
  return undefined;
}

function checkInt(s: Obj, key: 'minimum' | 'maximum' | 'default', want: bigint | null | undefined, at: string): string[] {
  if (want === undefined) return [];
  const have = s[key];
  if (want === null) return have === undefined ? [] : [`${at}: ${key} is ${show(have)}, expected none`];
  const e = exact(have);
  if (e === 'inexact') return [`${at}: ${key} ${show(have)} is not exact (parsed as a rounded number), expected ${want}`];
  if (e !== want) return [`${at}: ${key} is ${show(have)}, expected ${want}`];
  return [];
}

function allowsNull(doc: unknown, s: Obj): boolean {
  if (types(s).includes('null')) return true;
  const branches = [...(Array.isArray(s.anyOf) ? s.anyOf : []), ...(Array.isArray(s.oneOf) ? s.oneOf : [])];
  return branches.some((b) => allowsNull(doc, resolve(doc, b)));
}

/** Problems of `raw` (a spec schema) against the documented type `t`; `at` names the place. */
export function matchType(doc: unknown, raw: unknown, t: DocType, at: string): string[] {
  if (raw === undefined) return [`${at}: no schema`];
  if (t.kind === 'ref') {
    const r = obj(raw).$ref;
    if (typeof r !== 'string') return [`${at}: expected a $ref to ${t.name}, found ${show(raw)}`];
    if (r !== `#/components/schemas/${t.name}`) return [`${at}: refers to ${r}, expected #/components/schemas/${t.name}`];
    if (lookup(doc, r) === undefined) return [`${at}: ${r} does not resolve`];
    return [];
  }
  const s = resolve(doc, raw);
  if (t.kind === 'nullable') return matchNullable(doc, s, t.of, at);
  const problems: string[] = [];
  const wantType = (name: string) => {
    if (!typeIs(s, name)) problems.push(`${at}: type is ${show(s.type)}, expected ${name}${allowsNull(doc, s) ? ' (the document does not allow null here)' : ''}`);
  };
  switch (t.kind) {
    case 'integer': {
      wantType('integer');
      if (t.format !== undefined && s.format !== t.format) problems.push(`${at}: format is ${show(s.format)}, expected ${t.format}`);
      problems.push(...checkInt(s, 'minimum', t.minimum, at), ...checkInt(s, 'maximum', t.maximum, at), ...checkInt(s, 'default', t.default, at));
      if (t.minimum !== undefined && s.exclusiveMinimum !== undefined) problems.push(`${at}: has exclusiveMinimum ${show(s.exclusiveMinimum)}`);
      if (t.maximum !== undefined && s.exclusiveMaximum !== undefined) problems.push(`${at}: has exclusiveMaximum ${show(s.exclusiveMaximum)}`);
      break;
    }
    case 'number': wantType('number'); break;
    case 'boolean': wantType('boolean'); break;
    case 'string': {
      wantType('string');
      if (t.pattern !== undefined && s.pattern !== t.pattern) problems.push(`${at}: pattern is ${show(s.pattern)}, expected ${t.pattern}`);
      for (const sample of t.accepts ?? []) {
        if (typeof s.pattern === 'string' && !new RegExp(s.pattern, 'u').test(sample)) problems.push(`${at}: pattern ${s.pattern} rejects the documented value ${show(sample)}`);
        if (Array.isArray(s.enum) && !s.enum.includes(sample)) problems.push(`${at}: enum rejects the documented value ${show(sample)}`);
        if (s.const !== undefined && s.const !== sample) problems.push(`${at}: const rejects the documented value ${show(sample)}`);
        const min = exact(s.minLength);
        const max = exact(s.maxLength);
        if ((typeof min === 'bigint' && sample.length < min) || (typeof max === 'bigint' && sample.length > max)) problems.push(`${at}: length limits reject the documented value ${show(sample)}`);
      }
      break;
    }
    case 'object': {
      wantType('object');
      const props = Object.keys(obj(s.properties));
      if (props.length > 0 || s.additionalProperties === false || s.patternProperties !== undefined || s.oneOf || s.anyOf || s.allOf) {
        problems.push(`${at}: is not a free-form object (the document types it only as object)`);
      }
      break;
    }
    case 'any': {
      const constraining = ['type', 'enum', 'const', 'oneOf', 'anyOf', 'allOf', 'not', 'properties', 'items', 'if'].filter((k) => s[k] !== undefined);
      if (constraining.length > 0) problems.push(`${at}: constrains the value (${constraining.join(', ')}), the document allows any JSON value`);
      break;
    }
    case 'array': {
      wantType('array');
      problems.push(...matchType(doc, s.items, t.of, `${at}[]`));
      break;
    }
    case 'tuple': {
      wantType('array');
      const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : [];
      if (prefix.length !== t.items.length) problems.push(`${at}: has ${prefix.length} prefixItems, expected ${t.items.length}`);
      t.items.forEach((item, i) => problems.push(...matchType(doc, prefix[i], item, `${at}[${i}]`)));
      if (s.items !== false) problems.push(`${at}: items is ${show(s.items)}, expected false (exactly ${t.items.length} elements)`);
      if (exact(s.minItems) !== BigInt(t.items.length)) problems.push(`${at}: minItems is ${show(s.minItems)}, expected ${t.items.length}`);
      break;
    }
    case 'inline': {
      wantType('object');
      problems.push(...checkObjectFields(doc, s, t.fields, at));
      break;
    }
  }
  return problems;
}

function matchNullable(doc: unknown, s: Obj, inner: DocType, at: string): string[] {
  const isNull = (b: unknown) => typeIs(resolve(doc, b), 'null');
  const union = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined;
  if (union && union.some(isNull)) {
    const rest = union.filter((b) => !isNull(b));
    if (union.length !== 2 || rest.length !== 1) return [`${at}: expected ${showType({ kind: 'nullable', of: inner })}, found ${union.length} branches`];
    return matchType(doc, rest[0], inner, at);
  }
  if (types(s).includes('null')) {
    const others = types(s).filter((x) => x !== 'null');
    return matchType(doc, { ...s, type: others.length === 1 ? others[0] : others }, inner, at);
  }
  return [`${at}: does not allow null; the document says null or ${showType(inner)}`];
}

/** Property set, required list and field types of an object schema. */
function checkObjectFields(doc: unknown, s: Obj, fields: readonly Field[], at: string): string[] {
  const problems: string[] = [];
  const props = obj(s.properties);
  const required = Array.isArray(s.required) ? (s.required as string[]) : [];
  const names = new Set(fields.map(([n]) => n));
  for (const field of fields) problems.push(...checkFieldOf(doc, s, field, `${at}.${field[0]}`));
  for (const p of Object.keys(props)) if (!names.has(p)) problems.push(`${at}.${p}: not in the document`);
  for (const r of required) if (!names.has(r) && !(r in props)) problems.push(`${at}: required lists unknown field ${r}`);
  return problems;
}

function checkFieldOf(doc: unknown, s: Obj, [name, type, req]: Field, at: string): string[] {
  const props = obj(s.properties);
  if (!(name in props)) return [`${at}: missing`];
  const problems: string[] = [];
  const required = Array.isArray(s.required) && s.required.includes(name);
  if (required !== req) problems.push(req ? `${at}: required in the document, optional in the spec` : `${at}: optional in the document, required in the spec`);
  problems.push(...matchType(doc, props[name], type, at));
  return problems;
}

const schemaAt = (name: string) => `schema ${name}`;
const componentSchema = (doc: unknown, name: string): unknown => obj(obj(obj(doc).components).schemas)[name];

function checkDeprecated(s: Obj, want: boolean | undefined, at: string): string[] {
  if (want === undefined) return [];
  const have = s.deprecated === true;
  return have === want ? [] : [`${at}: deprecated is ${have}, expected ${want}`];
}

/** Existence, object type, deprecation and undocumented fields of a record. */
export function checkRecordShape(doc: unknown, row: RecordRow): string[] {
  const at = schemaAt(row.name);
  const raw = componentSchema(doc, row.name);
  if (raw === undefined) return [`${at}: missing`];
  const s = resolve(doc, raw);
  const problems: string[] = [];
  if (!typeIs(s, 'object')) problems.push(`${at}: type is ${show(s.type)}, expected object`);
  problems.push(...checkDeprecated(s, row.deprecated, at));
  const names = new Set(row.fields.map(([n]) => n));
  for (const p of Object.keys(obj(s.properties))) if (!names.has(p)) problems.push(`${at}.${p}: not in the document`);
  const required = Array.isArray(s.required) ? (s.required as string[]) : [];
  for (const r of required) if (!names.has(r)) problems.push(`${at}: required lists undocumented field ${r}`);
  return problems;
}

/** One documented field of a record: present, required flag, type. */
export function checkField(doc: unknown, row: RecordRow, field: Field): string[] {
  const raw = componentSchema(doc, row.name);
  if (raw === undefined) return [`${schemaAt(row.name)}: missing`];
  return checkFieldOf(doc, resolve(doc, raw), field, `${schemaAt(row.name)}.${field[0]}`);
}

export function checkRecord(doc: unknown, row: RecordRow): string[] {
  const shape = checkRecordShape(doc, row);
  if (componentSchema(doc, row.name) === undefined) return shape;
  return [...shape, ...row.fields.flatMap((f) => checkField(doc, row, f))];
}

const formName = (f: UnionRow['forms'][number]): string =>
  'const' in f ? show(f.const) : 'enum' in f ? `(one of ${f.enum.join(', ')})` : `{${f.key}}`;

/** An exclusive union: `oneOf`, every documented form once, each object form with exactly its one key. */
export function checkUnion(doc: unknown, row: UnionRow): string[] {
  const at = schemaAt(row.name);
  const raw = componentSchema(doc, row.name);
  if (raw === undefined) return [`${at}: missing`];
  const s = resolve(doc, raw);
  const problems = checkDeprecated(s, row.deprecated, at);
  if (!Array.isArray(s.oneOf)) return [...problems, `${at}: is not an exclusive union (no oneOf)`];
  const rawBranches: unknown[] = s.oneOf;
  const branches = rawBranches.map((b) => resolve(doc, b));
  const used = new Set<number>();
  for (const form of row.forms) {
    const fat = `${at} form ${formName(form)}`;
    let i: number;
    if ('const' in form) {
      i = branches.findIndex((b) => b.const === form.const || (Array.isArray(b.enum) && b.enum.length === 1 && b.enum[0] === form.const));
      if (i < 0) { problems.push(`${fat}: missing`); continue; }
      if (!typeIs(branches[i]!, 'string')) problems.push(`${fat}: type is ${show(branches[i]!.type)}, expected string`);
    } else if ('enum' in form) {
      i = branches.findIndex((b) => Array.isArray(b.enum) && b.enum.length > 1);
      if (i < 0) { problems.push(`${fat}: missing`); continue; }
      const b = branches[i]!;
      if (!typeIs(b, 'string')) problems.push(`${fat}: type is ${show(b.type)}, expected string`);
      const have = b.enum as unknown[];
      for (const v of form.enum) if (!have.includes(v)) problems.push(`${at}: value ${show(v)} missing`);
      for (const v of have) if (!form.enum.includes(v as string)) problems.push(`${at}: value ${show(v)} not in the document`);
    } else {
      i = branches.findIndex((b) => form.key in obj(b.properties) || (Array.isArray(b.required) && b.required.includes(form.key)));
      if (i < 0) { problems.push(`${fat}: missing`); continue; }
      const b = branches[i]!;
      if (!typeIs(b, 'object')) problems.push(`${fat}: type is ${show(b.type)}, expected object`);
      const req = Array.isArray(b.required) ? b.required : [];
      if (req.length !== 1 || req[0] !== form.key) problems.push(`${fat}: required is ${show(req)}, expected ${show([form.key])}`);
      const keys = Object.keys(obj(b.properties));
      if (keys.length !== 1) problems.push(`${fat}: has properties ${show(keys)}, expected only ${form.key}`);
      if (b.additionalProperties !== false) problems.push(`${fat}: not exclusive (additionalProperties is ${show(b.additionalProperties)}, expected false)`);
      problems.push(...matchType(doc, obj(b.properties)[form.key], form.type, fat));
    }
    if (used.has(i)) problems.push(`${fat}: shares a branch with another form`);
    used.add(i);
  }
  branches.forEach((_b, i) => {
    if (!used.has(i)) problems.push(`${at}: branch ${i} (${show(rawBranches[i])}) is not a documented form`);
  });
  return problems;
}

export function checkEnum(doc: unknown, row: EnumRow): string[] {
  const at = schemaAt(row.name);
  const raw = componentSchema(doc, row.name);
  if (raw === undefined) return [`${at}: missing`];
  const s = resolve(doc, raw);
  const problems = checkDeprecated(s, row.deprecated, at);
  if (!typeIs(s, 'string')) problems.push(`${at}: type is ${show(s.type)}, expected string`);
  const have = Array.isArray(s.enum) ? s.enum : [];
  for (const v of row.values) if (!have.includes(v)) problems.push(`${at}: enum value ${show(v)} missing`);
  for (const v of have) if (!row.values.includes(v as string)) problems.push(`${at}: enum value ${show(v)} not in the document`);
  return problems;
}

export const operationAt = (row: OperationRow): string => `${row.method.toUpperCase()} ${row.path} (${row.operationId})`;

function parametersOf(doc: unknown, item: Obj, op: Obj): Obj[] {
  const byKey = new Map<string, Obj>();
  for (const list of [item.parameters, op.parameters]) {
    for (const p of Array.isArray(list) ? list : []) {
      const r = resolve(doc, p);
      byKey.set(`${String(r.in)} ${String(r.name)}`, r);
    }
  }
  return [...byKey.values()];
}

function checkParam(doc: unknown, params: Obj[], row: ParamRow, at: string): string[] {
  const p = params.find((x) => x.name === row.name && x.in === row.in);
  const pat = `${at}: parameter ${row.in} ${row.name}`;
  if (!p) {
    const elsewhere = params.find((x) => x.name === row.name);
    return [`${pat}: missing${elsewhere ? ` (found in ${String(elsewhere.in)})` : ''}`];
  }
  const problems: string[] = [];
  if (row.required !== undefined && (p.required === true) !== row.required) {
    problems.push(`${pat}: required is ${p.required === true}, expected ${row.required}`);
  }
  problems.push(...matchType(doc, p.schema, row.type, pat));
  for (const word of row.descriptionMentions ?? []) {
    if (typeof p.description !== 'string' || !p.description.includes(word)) problems.push(`${pat}: description does not mention ${show(word)}`);
  }
  return problems;
}

function checkSecurity(doc: unknown, op: Obj, want: OperationRow['security'], at: string): string[] {
  if (!want) return [];
  const reqs = (Array.isArray(op.security) ? op.security : Array.isArray(obj(doc).security) ? (obj(doc).security as unknown[]) : []).map(obj);
  const label = `an ${want.type} ${want.in} ${want.name}`;
  if (reqs.length === 0) return [`${at}: no security requirement, expected ${label}`];
  const schemes = obj(obj(obj(doc).components).securitySchemes);
  const fits = (name: string) => {
    const sc = resolve(doc, schemes[name]);
    return sc.type === want.type && sc.in === want.in && sc.name === want.name;
  };
  const problems: string[] = [];
  for (const req of reqs) {
    if (Object.keys(req).length === 0) problems.push(`${at}: security allows anonymous calls, expected ${label}`);
    else if (!Object.keys(req).some(fits)) problems.push(`${at}: security requirement ${show(req)} does not use ${label}`);
  }
  return problems;
}

/** Method, path, operationId, deprecation, parameters, documented responses and security of an operation. */
export function checkOperation(doc: unknown, row: OperationRow): string[] {
  const at = operationAt(row);
  const item = obj(obj(obj(doc).paths)[row.path]);
  const raw = item[row.method];
  if (!isObj(raw)) {
    const elsewhere = Object.entries(obj(obj(doc).paths)).flatMap(([path, it]) =>
      Object.entries(obj(it)).filter(([, o]) => obj(o).operationId === row.operationId).map(([m]) => `${m.toUpperCase()} ${path}`));
    return [`${at}: missing${elsewhere.length ? ` (operationId found at ${elsewhere.join(', ')})` : ''}`];
  }
  const op = raw;
  const problems: string[] = [];
  if (op.operationId !== row.operationId) problems.push(`${at}: operationId is ${show(op.operationId)}, expected ${row.operationId}`);
  const deprecated = op.deprecated === true;
  if (deprecated !== row.deprecated) problems.push(`${at}: deprecated is ${deprecated}, expected ${row.deprecated}`);
  if (op.requestBody !== undefined) problems.push(`${at}: has a request body; the document says none`);
  const params = parametersOf(doc, item, op);
  for (const p of row.params) problems.push(...checkParam(doc, params, p, at));
  for (const p of params) {
    if (!row.params.some((d) => d.name === p.name && d.in === p.in)) problems.push(`${at}: parameter ${String(p.in)} ${String(p.name)} is not in the document`);
  }
  const responses = obj(op.responses);
  const ok = resolve(doc, responses['200']);
  if (responses['200'] === undefined) problems.push(`${at}: response 200 missing`);
  else {
    const schema = obj(obj(ok.content)['application/json']).schema;
    if (schema === undefined) problems.push(`${at}: response 200 has no application/json schema`);
    else problems.push(...matchType(doc, schema, row.response, `${at}: response 200`));
  }
  for (const status of row.errors ?? []) if (responses[status] === undefined) problems.push(`${at}: response ${status} missing`);
  problems.push(...checkSecurity(doc, op, row.security, at));
  return problems;
}

/** No paths or methods beyond the documented ones; operationIds unique. */
export function checkPaths(doc: unknown, table: DocumentTable): string[] {
  const problems: string[] = [];
  const documented = new Map(table.operations.map((o) => [`${o.method} ${o.path}`, o]));
  const ids = new Map<string, string>();
  for (const [path, item] of Object.entries(obj(obj(doc).paths))) {
    const methods = Object.keys(obj(item)).filter((m) => HTTP_METHODS.includes(m));
    if (!table.operations.some((o) => o.path === path)) {
      problems.push(`paths: ${path} is not in the document`);
      continue;
    }
    for (const m of methods) {
      if (!documented.has(`${m} ${path}`)) problems.push(`${m.toUpperCase()} ${path}: not in the document`);
      const id = obj(obj(item)[m]).operationId;
      if (typeof id === 'string') {
        if (ids.has(id)) problems.push(`operationId ${id}: used by ${ids.get(id)} and ${m.toUpperCase()} ${path}`);
        ids.set(id, `${m.toUpperCase()} ${path}`);
      }
    }
  }
  return problems;
}

export function checkServers(doc: unknown, table: DocumentTable): string[] {
  const servers = (Array.isArray(obj(doc).servers) ? (obj(doc).servers as unknown[]) : []).map(obj);
  if (servers.length === 0) return ['servers: none'];
  const problems: string[] = [];
  if (table.servers.first !== undefined && servers[0]!.url !== table.servers.first) {
    problems.push(`servers: the first is ${show(servers[0]!.url)}, expected ${table.servers.first}`);
  }
  for (const use of table.servers.uses) {
    if (!servers.some((s) => typeof s.description === 'string' && s.description.toLowerCase().includes(use))) {
      problems.push(`servers: none is described as the ${use} node`);
    }
  }
  return problems;
}

/** Component schemas that are neither documented records nor listed helpers. */
export function checkSchemaSet(doc: unknown, table: DocumentTable): string[] {
  const known = new Set([...table.records, ...table.unions, ...table.enums].map((r) => r.name).concat(table.helperSchemas));
  return Object.keys(obj(obj(obj(doc).components).schemas))
    .filter((n) => !known.has(n))
    .map((n) => `${schemaAt(n)}: not in the document`);
}

/** Every difference between a spec and a transcribed document, one line each; [] when the spec covers it. */
export function coverageProblems(doc: unknown, table: DocumentTable): string[] {
  const all = [
    ...checkServers(doc, table),
    ...checkPaths(doc, table),
    ...table.operations.flatMap((o) => checkOperation(doc, o)),
    ...table.records.flatMap((r) => checkRecord(doc, r)),
    ...table.unions.flatMap((u) => checkUnion(doc, u)),
    ...table.enums.flatMap((e) => checkEnum(doc, e)),
    ...checkSchemaSet(doc, table),
  ];
  return [...new Set(all)];
}
