/**
 * How one compiled function calls another: with no context object, the callee's errors given their path
 * afterwards. Post-processing of ajv's standalone code (run after `dropUnusedContext` of compile.ts).
 *
 * ajv passes every call `{ instancePath: instancePath + "/record/" + i }`: an object and a string per call,
 * on valid values too. That cost is why the first-error variants used to inline every acyclic `$ref`
 * (one copy of TransactionInfoV2 in each schema holding it, 6.6 MB of code for both specs). Here a call
 * passes the value only, every function validates from path `""`, and the caller prefixes the callee's
 * errors with the path it would have passed, only when the callee failed. A valid value allocates
 * nothing for the call, so a schema can be called rather than copied into every schema that holds it
 * (inline.ts decides which are still copied).
 */

const STRING = String.raw`"(?:[^"\\]|\\.)*"`;

/** A callee: a compiled function (`strict$Event`), or ajv's wrapper of a recursive one (`wrapper0.validate`). */
const CALLEE = String.raw`[\w$]+(?:\.validate)?`;

/**
 * `if(!(f(data.x, {instancePath:instancePath+"/x"}))){` and the two lines ajv writes after it to take over
 * `f.errors` (the `concat` copied all errors found so far each time: quadratic in the "all errors"
 * variants).
 */
const CALL = new RegExp(
  String.raw`if\s*\(\s*!\s*\(\s*(${CALLEE})\((.+?),\s*\{\s*instancePath\s*:\s*((?:${STRING}|[^{}"\n])+?)\s*\}\s*\)\s*\)\s*\)\s*\{\n` +
    String.raw`(\s*)vErrors\s*=\s*vErrors\s*===\s*null\s*\?\s*\1\.errors\s*:\s*vErrors\.concat\(\1\.errors\);\n` +
    String.raw`(\s*)errors\s*=\s*vErrors\.length;\n`,
  'g',
);

/** The parameters every compiled function declares once `dropUnusedContext` has run. */
const SIGNATURE = /\(data,\s*\{\s*instancePath\s*=\s*""\s*\}\s*=\s*\{\}\s*\)\s*\{/g;

/** The one run-time helper the calls use: the callee's errors, their paths prefixed, appended (linear). */
export const CALLEE_ERRORS_HELPER = `
function calleeErrors(to, from, path) {
  for (let i = 0; i < from.length; i++) from[i].instancePath = path + from[i].instancePath;
  if (to === null) return from;
  for (let i = 0; i < from.length; i++) to.push(from[i]);
  return to;
}
`;

/**
 * Every call without its context object, and every function without the parameter: `instancePath` is a
 * constant `""` inside each function. The error objects a callee returns are its own, made by that call,
 * so giving them their full path in place is safe. Throws when ajv's output has a call of another form.
 */
export function callsWithoutContext(code: string): string {
  let calls = 0;
  let out = code.replace(CALL, (_m, callee: string, arg: string, path: string, indent: string, indent2: string) => {
    calls++;
    return `if (!${callee}(${arg})) {\n${indent}vErrors = calleeErrors(vErrors, ${callee}.errors, ${path});\n${indent2}errors = vErrors.length;\n`;
  });
  // Every other mention of a compiled function is its declaration or an export.
  for (const m of out.matchAll(/^.*\b(?:[A-Za-z]+\$\w+|wrapper\d+\.validate)\(.*$/gm)) {
    if (!/^\s*(?:function [\w$]+\(|if \(![\w$.]+\([^{}]*\)\) \{$)/.test(m[0])) {
      throw new Error(`standalone code calls a function in a way the generator does not know: ${m[0].trim()}`);
    }
  }
  if (/\.concat\(/.test(out)) throw new Error('standalone code concatenates errors in a way the generator does not know');
  let functions = 0;
  out = out.replace(SIGNATURE, () => {
    functions++;
    return '(data) {\nconst instancePath = "";';
  });
  if (/instancePath\s*=\s*""\s*\}\s*=/.test(out) || functions === 0) throw new Error('standalone code declares its functions in a way the generator does not know');
  return calls === 0 ? out : `${out}\n${CALLEE_ERRORS_HELPER}`;
}
