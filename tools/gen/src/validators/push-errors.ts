/**
 * How the "all errors" code records an error: one helper call instead of ajv's five lines. Post-processing
 * of ajv's standalone code (compile.ts). ajv writes, for every error it can report,
 * `const err0 = {...}; if (vErrors === null) { vErrors = [err0]; } else { vErrors.push(err0); } errors++;`:
 * 2,253 sites once the v4 operations were in the specs, about 85 kB of the minified module. The helper does
 * the same on a path taken only by an invalid value.
 */

/** ajv's push of one error object (its own line) onto `vErrors`. */
const PUSH = /^([ \t]*)const (err\d+) = (\{.*\});\n\s*if\s*\(vErrors === null\)\s*\{\s*vErrors = \[\2\];\s*\}\s*else\s*\{\s*vErrors\.push\(\2\);\s*\}\n/gm;

/** The helper: the list with the error appended (a new list when there was none). */
export const PUSH_ERROR_HELPER = `
function pushError(to, error) {
  if (to === null) return [error];
  to.push(error);
  return to;
}
`;

/** Every push of an error through `pushError`. Throws when ajv's output keeps an error object of another form. */
export function compactErrorPushes(code: string): string {
  let pushes = 0;
  const out = code.replace(PUSH, (_m, indent: string, _name: string, error: string) => {
    pushes++;
    return `${indent}vErrors = pushError(vErrors, ${error});\n`;
  });
  const left = /\bconst err\d+ = |vErrors\.push\(/.exec(out);
  if (left) throw new Error(`standalone code records an error in a way the generator does not know: …${out.slice(Math.max(0, left.index - 200), left.index + 200)}…`);
  return pushes === 0 ? out : `${out}\n${PUSH_ERROR_HELPER}`;
}
