import type { CodeKeywordDefinition, KeywordCxt, KeywordDefinition } from 'ajv/dist/2020.js';
import { _, not, type Name } from 'ajv/dist/compile/codegen/index.js';
import N from 'ajv/dist/compile/names.js';
import { LIVE_ACTIONS, LIVE_FORMS } from './transform.ts';
import type { Schema } from './walk.ts';
import { fileURLToPath } from 'node:url';
import { closestForm, liveProfile } from './live-runtime.js';

// ajv/dist/compile/names is CommonJS (`exports.default = names`): Node's default import is
// `module.exports`, with the names under `.default`; vite's interop (the tests) gives the names.
type Names = { errors: Name; vErrors: Name };
const imported = N as unknown as Names & { default?: Names };
const names = imported.default ?? imported;

/** Module the standalone code imports the profile switch from; the bundler resolves it (compile.ts). */
export const LIVE_PROFILE_MODULE = 'x-validators:live-profile';

/** The file whose code `LIVE_PROFILE_MODULE` is: the switch and `closestForm`, bundled once. */
export const LIVE_RUNTIME_FILE = fileURLToPath(new URL('./live-runtime.js', import.meta.url));

/**
 * `liveForms: [documented, observed]` — a node of the live reading (see `../live.ts`). One compiled
 * function serves both profiles; the switch `liveProfile.live`, which the facade sets around a call,
 * says which:
 *
 * - documented profile (`live` false): exactly the documented form, with its errors as before;
 * - live profile: valid when the value is valid against either form, the documented one tried first.
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
    const profile = gen.scopeValue('obj', { ref: liveProfile, code: _`require(${LIVE_PROFILE_MODULE}).liveProfile` });
    const closestOf = gen.scopeValue('func', { ref: closestForm, code: _`require(${LIVE_PROFILE_MODULE}).closestForm` });
    const actions = ((cxt.parentSchema as Schema)[LIVE_ACTIONS] as string[] | undefined)?.join(', ') ?? '';
    const valid = gen.let('valid', true);
    const documented = gen.name('_valid');
    cxt.subschema({ keyword: LIVE_FORMS, schemaProp: 0, compositeRule: true }, documented);
    gen.if(not(documented), () => {
      gen.if(not(_`${profile}.live`));
      // The documented profile: the documented form's errors, reported as its own keywords would.
      gen.assign(valid, false);
      if (!it.allErrors && !it.compositeRule) {
        gen.assign(_`${it.validateName}.errors`, names.vErrors);
        gen.return(false);
      }
      gen.else();
      const mid = gen.const('_mid', names.errors);
      const observed = gen.name('_valid');
      cxt.subschema({ keyword: LIVE_FORMS, schemaProp: 1, compositeRule: true }, observed);
      gen.if(
        observed,
        () => cxt.reset(),
        () => {
          const closest = gen.const('_closest', _`${closestOf}(${names.vErrors}, ${start}, ${mid})`);
          gen.assign(names.errors, _`${names.vErrors}.length`);
          gen.assign(valid, false);
          cxt.error(true, { closest, actions: _`${actions}`, count: _`${names.errors} - ${start}` });
        },
      );
      gen.endIf();
    });
    cxt.ok(valid);
  },
};

/** `liveActions: [id, ...]` next to `liveForms`: an annotation its code reads at compile time. */
export const liveActionsKeyword: KeywordDefinition = { keyword: LIVE_ACTIONS, schemaType: 'array' };
