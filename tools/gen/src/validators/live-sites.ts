import { header } from '../files.ts';
import { LIVE_OVERLAY_FILE, LIVE_TAG } from '../live.ts';
import type { Collected } from './collect.ts';
import type { Schema } from './walk.ts';
import { isSchemaObject } from './walk.ts';

/** A place in a response body where the live reading accepts two forms: `/record/*\/header/sender`. */
type Site = { pattern: string; actions: string[] };

function walk(schema: unknown, path: string[], defs: Readonly<Record<string, Schema>>, stack: Set<string>, out: Site[]): void {
  if (!isSchemaObject(schema)) return;
  const tag = schema[LIVE_TAG] as { actions: string[] } | undefined;
  if (tag) {
    out.push({ pattern: `/${path.join('/')}`, actions: tag.actions });
    return;
  }
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace('#/$defs/', '');
    if (!stack.has(name)) walk(defs[name], path, defs, new Set([...stack, name]), out);
  }
  if (isSchemaObject(schema.properties)) {
    for (const [k, s] of Object.entries(schema.properties)) walk(s, [...path, k.replace(/~/g, '~0').replace(/\//g, '~1')], defs, stack, out);
  }
  if (isSchemaObject(schema.items)) walk(schema.items, [...path, '*'], defs, stack, out);
  if (Array.isArray(schema.prefixItems)) schema.prefixItems.forEach((s, i) => walk(s, [...path, String(i)], defs, stack, out));
  for (const k of ['anyOf', 'oneOf', 'allOf'] as const) {
    const branches = schema[k];
    if (Array.isArray(branches)) for (const b of branches) walk(b, path, defs, stack, out);
  }
}

/**
 * `live-sites.ts`: for every operation, where in its response bodies the live reading accepts another
 * form than the document, as JSON-pointer patterns (`*`: any array index) with the overlay action ids.
 * x-validate names the actions of a known drift with it.
 */
export function emitLiveSites(live: Collected, defs: Readonly<Record<string, Schema>>): string {
  const lines = [
    header(`specs/node-rpc.openapi.yaml and ${LIVE_OVERLAY_FILE}`),
    '/** Per operationId: `[pattern, action ids]`, a JSON-pointer pattern (`*` is any array index) of the body. */',
    'export const liveSites: Readonly<Record<string, readonly (readonly [string, readonly string[]])[]>> = {',
  ];
  for (const op of live.operations) {
    const sites: Site[] = [];
    for (const [, rule] of op.responses) if (rule.kind === 'schema') walk({ $ref: `#/$defs/${rule.def}` }, [], defs, new Set(), sites);
    const unique = [...new Map(sites.map((s) => [`${s.pattern} ${s.actions.join()}`, s])).values()];
    if (unique.length === 0) continue;
    lines.push(`  ${op.operationId}: [`);
    for (const s of unique) lines.push(`    [${JSON.stringify(s.pattern)}, ${JSON.stringify(s.actions)}],`);
    lines.push('  ],');
  }
  lines.push('};', '');
  return lines.join('\n');
}
