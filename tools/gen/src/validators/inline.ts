import type { Schema } from './walk.ts';
import { mapSchema } from './walk.ts';

/** The names a schema refers to (`#/$defs/X`). */
function refsOf(schema: Schema): Set<string> {
  const out = new Set<string>();
  mapSchema(schema, (s) => {
    if (typeof s.$ref === 'string') out.add(s.$ref.replace('#/$defs/', ''));
    return s;
  });
  return out;
}

/** The schemas that reach themselves through `$ref`s (TypeTag, StructTag, MoveValue): they stay calls. */
function cyclicSchemas(defs: Record<string, Schema>): Set<string> {
  const refs = new Map(Object.entries(defs).map(([name, s]) => [name, refsOf(s)]));
  const reaches = (from: string, to: string): boolean => {
    const seen = new Set<string>();
    const stack = [...(refs.get(from) ?? [])];
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (n === to) return true;
      if (seen.has(n)) continue;
      seen.add(n);
      stack.push(...(refs.get(n) ?? []));
    }
    return false;
  };
  return new Set(Object.keys(defs).filter((n) => reaches(n, n)));
}

/**
 * Every `$ref` to an acyclic schema whose expansion is at most `maxChars` of JSON replaced by that
 * schema itself, recursively (a schema's small parts are expanded before its own size is judged); larger
 * ones, and schemas of a cycle (TypeTag, StructTag, MoveValue), stay calls, which calls.ts makes allocate
 * nothing. Same verdicts and errors: ajv reports an inlined schema's errors at the same paths as a called
 * one's.
 *
 * Why not inline every acyclic `$ref`, as the generator did: each page schema then carried a copy of every
 * record schema and of all its parts, in each first-error variant (6.6 MB of code for both specs, all
 * parsed by Node on import). Why inline at all: measured on the bench's v2 transactions page (`pnpm bench
 * --only validate`, compile.ts's `INLINE_CHARS` 1,000), with nothing inlined the pages validated 5 to 25%
 * slower, and once the live profile had tried one form of a timestamp on a body of the other form, V8
 * boxed every large timestamp it read (about 100 B per record; the bench's target is none). With the
 * records and their small parts inlined (a v2 transaction is about 1,000 characters once its block header,
 * header and output are left as calls), neither, at 1.7 MB of code. A cap of 700 left the boxing.
 */
export function inlineSmallRefs(defs: Record<string, Schema>, maxChars: number): Record<string, Schema> {
  const cyclic = cyclicSchemas(defs);
  const done = new Map<string, Schema>();
  const expand = (name: string): Schema => {
    const cached = done.get(name);
    if (cached) return cached;
    const out = mapSchema(defs[name], (s) => {
      if (typeof s.$ref !== 'string') return s;
      const target = s.$ref.replace('#/$defs/', '');
      if (cyclic.has(target)) return s;
      const body = expand(target);
      if (JSON.stringify(body).length > maxChars) return s;
      const { $ref: _ref, ...rest } = s;
      return Object.keys(rest).length === 0 ? body : { allOf: [body], ...rest };
    }) as Schema;
    done.set(name, out);
    return out;
  };
  const result: Record<string, Schema> = {};
  for (const name of Object.keys(defs)) result[name] = cyclic.has(name) ? defs[name]! : expand(name);
  return result;
}
