import type { CodeKeywordDefinition, KeywordCxt, KeywordDefinition } from 'ajv/dist/2020.js';
import { _, not, type Name } from 'ajv/dist/compile/codegen/index.js';
import N from 'ajv/dist/compile/names.js';
import { LIVE_ACTIONS, LIVE_FORMS } from './transform.ts';
import type { Schema } from './walk.ts';

// ajv/dist/compile/names is CommonJS (`exports.default = names`): Node's default import is
// `module.exports`, with the names under `.default`; vite's interop (the tests) gives the names.
type Names = { errors: Name; vErrors: Name };
const imported = N as unknown as Names & { default?: Names };
const names = imported.default ?? imported;

/**
 * `liveForms: [documented, observed]` — a node of the live reading (see `../live.ts`): valid when the
 * value is valid against either form, the documented one tried first (every valid value of the
 * documented reading costs no more than before).
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
    const { gen } = cxt;
    const start = cxt.errsCount!;
    const actions = ((cxt.parentSchema as Schema)[LIVE_ACTIONS] as string[] | undefined)?.join(', ') ?? '';
    const valid = gen.let('valid', true);
    const documented = gen.name('_valid');
    cxt.subschema({ keyword: LIVE_FORMS, schemaProp: 0, compositeRule: true }, documented);
    gen.if(not(documented), () => {
      const mid = gen.const('_mid', names.errors);
      const observed = gen.name('_valid');
      cxt.subschema({ keyword: LIVE_FORMS, schemaProp: 1, compositeRule: true }, observed);
      gen.if(
        observed,
        () => cxt.reset(),
        () => {
          const depth = (from: unknown, to: unknown) => {
            const d = gen.let('_depth', 0);
            gen.forRange('i', from as never, to as never, (i) => {
              const e = _`${names.vErrors}[${i}]`;
              const rank = _`(${e}.keyword === "type" ? 0 : ${e}.keyword === "required" ? 1 : 2)`;
              const score = gen.const('_score', _`${e}.instancePath.length * 4 + ${rank}`);
              gen.if(_`${score} > ${d}`, () => gen.assign(d, score));
            });
            return d;
          };
          const d0 = depth(start, mid);
          const d1 = depth(mid, names.errors);
          const closest = gen.let('_closest', _`"documented"`);
          gen.if(
            _`${d1} > ${d0}`,
            () => {
              gen.code(_`${names.vErrors}.splice(${start}, ${mid} - ${start})`);
              gen.assign(closest, _`"observed"`);
            },
            () => gen.assign(_`${names.vErrors}.length`, mid),
          );
          gen.assign(names.errors, _`${names.vErrors}.length`);
          gen.assign(valid, false);
          cxt.error(true, { closest, actions: _`${actions}`, count: _`${names.errors} - ${start}` });
        },
      );
    });
    cxt.ok(valid);
  },
};

/** `liveActions: [id, ...]` next to `liveForms`: an annotation its code reads at compile time. */
export const liveActionsKeyword: KeywordDefinition = { keyword: LIVE_ACTIONS, schemaType: 'array' };
