import type { Schema } from './walk.ts';
import { mapSchema } from './walk.ts';

/** Suffix of the name of a schema's live definition: `Event$live`. */
export const LIVE_SUFFIX = '$live';

const refsOf = (schema: Schema): Set<string> => {
  const out = new Set<string>();
  mapSchema(schema, (s) => {
    if (typeof s.$ref === 'string') out.add(s.$ref.replace('#/$defs/', ''));
    return s;
  });
  return out;
};

/**
 * The definitions the live profile needs besides the documented ones: a schema whose live reading
 * differs (an overlay action changed it), and every schema that refers to one, directly or not, gets a
 * copy named `X$live` whose references to such schemas point at their live copies. Every other schema
 * is shared by both profiles, so the live profile adds only the functions that differ.
 */
export function liveVariants(
  documented: Readonly<Record<string, Schema>>,
  live: Readonly<Record<string, Schema>>,
): { defs: Record<string, Schema>; names: Map<string, string> } {
  const differs = new Set<string>();
  for (const [name, schema] of Object.entries(live)) {
    const doc = documented[name];
    if (doc === undefined) throw new Error(`the live reading has a schema ${name} the documented one lacks`);
    if (JSON.stringify(doc) !== JSON.stringify(schema)) differs.add(name);
  }
  for (const name of Object.keys(documented)) {
    if (!(name in live)) throw new Error(`the live reading lacks the schema ${name}`);
  }
  const refs = new Map(Object.entries(live).map(([name, schema]) => [name, refsOf(schema)]));
  for (let grew = true; grew; ) {
    grew = false;
    for (const [name, to] of refs) {
      if (!differs.has(name) && [...to].some((r) => differs.has(r))) {
        differs.add(name);
        grew = true;
      }
    }
  }
  const names = new Map([...differs].map((n) => [n, `${n}${LIVE_SUFFIX}`]));
  const defs: Record<string, Schema> = {};
  for (const name of Object.keys(live).filter((n) => differs.has(n))) {
    defs[names.get(name)!] = mapSchema(live[name], (s) => {
      if (typeof s.$ref !== 'string') return s;
      const target = names.get(s.$ref.replace('#/$defs/', ''));
      return target === undefined ? s : { ...s, $ref: `#/$defs/${target}` };
    }) as Schema;
  }
  return { defs, names };
}
