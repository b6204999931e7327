import type { CodeKeywordDefinition, KeywordCxt, KeywordDefinition } from 'ajv/dist/2020.js';
import { _, not, type Name } from 'ajv/dist/compile/codegen/index.js';
import N from 'ajv/dist/compile/names.js';
import { LIVE_ACTIONS, LIVE_FORMS } from './transform.ts';
import type { Schema } from './walk.ts';
import { fileURLToPath } from 'node:url';
import { closestForm, liveProfile } from './keyword-runtime.js';

// ajv/dist/compile/names is CommonJS (`exports.default = names`): Node's default import is
// `module.exports`, with the names under `.default`; vite's interop (the tests) gives the names.
type Names = { errors: Name; vErrors: Name };
const imported = N as unknown as Names & { default?: Names };
const names = imported.default ?? imported;

/**
 * Module the standalone code imports the keywords' run-time helpers from (the profile switch,
 * `closestForm`); the bundler resolves it to `RUNTIME_FILE`, once (compile.ts).
 */
export const RUNTIME_MODULE = 'x-validators:runtime';
export const RUNTIME_FILE = fileURLToPath(new URL('./keyword-runtime.js', import.meta.url));

/**
 * `liveForms: [documented, observed]` — a node of the live reading (see `../live.ts`). One compiled
 * function serves both profiles; the switch `liveProfile.live`, which the facade sets around a call,
 * says which:
 *
 * - documented profile (`live` false): exactly the documented form, with its errors as before;
 * - live profile: valid when the value is valid against either form. The form that fitted last at this
 *   node is tried first (the observed one at first): a page holds one shape throughout, so the first
 *   try fits and a failed try, which costs an error object per check, stays rare on either shape.
 *
 * When neither fits, only the errors of the form that came closest are kept: the one whose deepest
 * error lies deeper in the value (it matched more before failing); at the same depth, the one whose
 * error there says less is wrong (a wrong type, then a missing property, then anything else, such as
 * an unknown property or a pattern); on a tie, the documented form. They
 * are followed by one `liveForms` error whose params say which form that was (`closest`), the overlay
 * action ids (`actions`) and how many errors before it are that form's (`count`); the facade
 * (`packages/validators/src/issues.ts`) folds it into those errors' messages.
 */
export const liveFormsKeyword: CodeKeywordDefinition = {
  keyword: LIVE_FORMS,
  schemaType: 'array',
  trackErrors: true,
  error: {
    message: 'must match the documented or the observed form',
    params: ({ params }) => _`{closest: ${params.closest!}, actions: ${params.actions!}, count: ${params.count!}}`,
  },
  code(cxt: KeywordCxt) {
    const { gen, it } = cxt;
    const start = cxt.errsCount!;
    const profile = gen.scopeValue('obj', { ref: liveProfile, code: _`require(${RUNTIME_MODULE}).liveProfile` });
    const closestOf = gen.scopeValue('func', { ref: closestForm, code: _`require(${RUNTIME_MODULE}).closestForm` });
    const actions = ((cxt.parentSchema as Schema)[LIVE_ACTIONS] as string[] | undefined)?.join(', ') ?? '';
    // This node's memory of the form that fitted last in the live profile (a module-level object of the
    // standalone code, one per node): `observed` true tries the observed form first.
    const last = gen.scopeValue('obj', { ref: { observed: true }, code: _`{observed: true}` });
    const live = gen.const('_live', _`${profile}.live`);
    const observedFirst = gen.const('_observedFirst', _`${live} && ${last}.observed`);
    const valid = gen.let('valid', false);
    const mid = gen.let('_mid', start);
    const form = gen.name('_valid');
    // Each form's code once, in a loop of two tries: the documented form only in the documented
    // profile; in the live profile, the one that fitted last first.
    gen.forRange('_k', 0, 2, (k) => {
      const observed = _`(${k} === 0) === ${observedFirst}`;
      gen.if(
        observed,
        () => cxt.subschema({ keyword: LIVE_FORMS, schemaProp: 1, compositeRule: true }, form),
        () => cxt.subschema({ keyword: LIVE_FORMS, schemaProp: 0, compositeRule: true }, form),
      );
      gen.if(form, () => {
        gen.assign(valid, true);
        cxt.reset();
        // The second try fitted: try it first next time.
        gen.if(_`${k} === 1`, () => gen.assign(_`${last}.observed`, observed));
        gen.break();
      });
      gen.if(_`${k} === 0`, () => {
        gen.assign(mid, names.errors);
        gen.if(not(live), () => gen.break());
      });
    });
    gen.if(not(valid), () => {
      gen.if(not(live));
      // The documented profile: the documented form's errors, reported as its own keywords would.
      if (!it.allErrors && !it.compositeRule) {
        gen.assign(_`${it.validateName}.errors`, names.vErrors);
        gen.return(false);
      }
      gen.else();
      // The live profile: both failed, the first try's errors first; keep the closest form's.
      const closest = gen.const('_closest', _`${closestOf}(${names.vErrors}, ${start}, ${mid}, ${observedFirst})`);
      gen.assign(names.errors, _`${names.vErrors}.length`);
      cxt.error(true, { closest, actions: _`${actions}`, count: _`${names.errors} - ${start}` });
      gen.endIf();
    });
    cxt.ok(valid);
  },
};

/** `liveActions: [id, ...]` next to `liveForms`: an annotation its code reads at compile time. */
export const liveActionsKeyword: KeywordDefinition = { keyword: LIVE_ACTIONS, schemaType: 'array' };
