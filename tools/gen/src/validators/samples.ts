import type { Schema } from './walk.ts';
import { isSchemaObject } from './walk.ts';

/** Strings tried, in order, for a string schema with a `pattern`. */
const PATTERN_CANDIDATES = ['0x1', 'btc_usdt', '1', '0x00', '2024-11-19 12:00:00', '0x1::coin::CoinStore', 'coin', ''];

/**
 * A small value the schema accepts, for the TSDoc examples: the spec's example where there is one,
 * required properties only, empty arrays, the first enum value, the first object form of a union. The generator checks each sample against the
 * strict validator and writes no sample it rejects; `undefined` when no sample was found.
 */
export function sampleOf(schema: unknown, defs: Record<string, Schema>, depth = 0): unknown {
  if (depth > 8 || !isSchemaObject(schema)) return undefined;
  if (typeof schema.$ref === 'string') {
    return sampleOf(defs[schema.$ref.replace('#/$defs/', '')], defs, depth + 1);
  }
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('example' in schema) return schema.example;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  for (const key of ['oneOf', 'anyOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    // Prefer an object form (more telling than a bare string or null) unless nested deep already.
    const ordered = depth < 2 ? [...branches].sort((a, b) => rank(a) - rank(b)) : branches;
    for (const b of ordered) {
      const v = sampleOf(b, defs, depth + 1);
      if (v !== undefined && v !== null) return v;
    }
    return undefined;
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = types.find((t) => t !== 'null') ?? types[0];
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const props = isSchemaObject(schema.properties) ? schema.properties : {};
      for (const name of Array.isArray(schema.required) ? schema.required : []) {
        const v = sampleOf(props[name as string] ?? {}, defs, depth + 1);
        if (v === undefined) return undefined;
        out[name as string] = v;
      }
      return out;
    }
    case 'array': {
      if (!Array.isArray(schema.prefixItems)) return [];
      const items = schema.prefixItems.map((s) => sampleOf(s, defs, depth + 1));
      return items.includes(undefined) ? undefined : items;
    }
    case 'string': {
      if (typeof schema.pattern !== 'string') return 'text';
      const re = new RegExp(schema.pattern, 'u');
      return PATTERN_CANDIDATES.find((c) => re.test(c));
    }
    case 'integer':
      return typeof schema.minimum === 'number' ? schema.minimum : 0;
    case 'number':
      return 1.5;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case undefined:
      return {};
    default:
      return undefined;
  }
}

function rank(s: unknown): number {
  if (!isSchemaObject(s)) return 2;
  if (s.type === 'object' || '$ref' in s) return 0;
  return s.type === 'null' ? 2 : 1;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A value as a one-line JavaScript literal: `{ gas_used: 0, events: [], vm_status: 'text' }`. */
export function jsLiteral(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(jsLiteral).join(', ')}]`;
  if (isSchemaObject(value)) {
    const entries = Object.entries(value).map(([k, v]) => `${IDENTIFIER.test(k) ? k : `'${k}'`}: ${jsLiteral(v)}`);
    return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
  }
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  return JSON.stringify(value);
}
