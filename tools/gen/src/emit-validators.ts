import type { FileSet } from './files.ts';
import type { Spec } from './specs.ts';
import { ROOT } from './specs.ts';
import type { Schema } from './validators/walk.ts';
import { collect } from './validators/collect.ts';
import { VARIANTS, bundleVariants, compiledSchema, standaloneVariant } from './validators/compile.ts';
import { jsLiteral, sampleOf } from './validators/samples.ts';
import { emitLiveSites } from './validators/live-sites.ts';
import { emitJsonSchemasModule, emitStandardModule, emitStandardTableModule } from './validators/standard.ts';
import { mergeAllOf } from './validators/transform.ts';
import {
  OUT_DIR,
  emitAjvDeclarations,
  emitAjvModule,
  emitResponsesModule,
  emitSchemasModule,
  emitTypesModule,
  emitValidatorsModule,
} from './validators/emit.ts';

/**
 * `packages/validators/src/generated/`:
 * - `ajv.js` + `ajv.d.ts`: ajv standalone code of every schema of both specs in four variants
 *   (lenient / strict profile, first error / all errors), bundled by esbuild into one ES module;
 * - `schemas.ts`: the four functions of each schema as one object (each serves both profiles);
 * - `validators.ts`: `validateX`, `isX`, `assertX` per schema;
 * - `responses.ts`: the response rules and body types of every operation;
 * - `types.ts`: the schema types under their exported names;
 * - `live-sites.ts`: where each operation's bodies may take the observed form, with the overlay action ids;
 * - `json-schemas.ts`: every schema in its four readings as plain JSON Schema 2020-12; `standard.ts`:
 *   one Standard Schema per exported schema (`@x/validators/standard`), `standard-table.ts`: all of them
 *   by name, for `standardSchema`;
 * The types come from `@x/node-types` and `@x/price-types` (generated once, there).
 */
export async function emitValidators(specs: { node: Spec; nodeLive: Spec; price: Spec }): Promise<FileSet> {
  const collected = collect(specs);
  const defs: Record<string, Schema> = {};
  for (const s of collected.schemas) defs[s.name] = s.schema;
  for (const s of collected.internal) defs[s.name] = s.schema;
  // One compiled function per schema serves both profiles: the live reading's schemas, whose nodes with
  // two forms (liveForms) check only the documented one unless the facade switches the live profile on.
  const liveCollected = collect({ node: specs.nodeLive, price: specs.price });
  const liveDefs: Record<string, Schema> = {};
  for (const s of [...liveCollected.schemas, ...liveCollected.internal]) liveDefs[s.name] = s.schema;
  if (JSON.stringify(Object.keys(liveDefs)) !== JSON.stringify(Object.keys(defs))) {
    throw new Error('the live reading must have the schemas of the documented one, in the same order');
  }
  const defNames = Object.keys(defs);

  // allOfs of object schemas (the v3 transactions' branches) as one object schema each: the strict
  // profile closes it, and a tagged union finds its tag there (transform.ts).
  const compiled = VARIANTS.map((v) => ({ variant: v, ...standaloneVariant(v, mergeAllOf(liveDefs)) }));
  const bundle = await bundleVariants(new Map(compiled.map((c) => [c.variant.name, c.code])), ROOT);

  // TSDoc samples: only those the strict validator accepts.
  const strict = compiled.find((c) => c.variant.name === 'strict')!.ajv;
  const samples = new Map<string, unknown>();
  const mergedDefs = mergeAllOf(defs);
  for (const s of collected.schemas) {
    const sample = sampleOf(mergedDefs[s.name], mergedDefs);
    if (sample !== undefined && compiledSchema(strict, s.name)(sample)) samples.set(s.name, sample);
  }

  const files: FileSet = new Map();
  files.set(`${OUT_DIR}/ajv.js`, emitAjvModule(bundle));
  files.set(`${OUT_DIR}/ajv.d.ts`, emitAjvDeclarations(defNames, VARIANTS));
  files.set(`${OUT_DIR}/schemas.ts`, emitSchemasModule(defNames, VARIANTS));
  files.set(`${OUT_DIR}/validators.ts`, emitValidatorsModule(collected.schemas, samples, jsLiteral));
  files.set(`${OUT_DIR}/responses.ts`, emitResponsesModule(collected.operations, collected.schemas.map((s) => s.name)));
  files.set(
    `${OUT_DIR}/types.ts`,
    emitTypesModule(collected.schemas, specs.node, specs.price, '@x/node-types', '@x/price-types'),
  );
  files.set(`${OUT_DIR}/live-sites.ts`, emitLiveSites(liveCollected, liveDefs));
  files.set(`${OUT_DIR}/json-schemas.ts`, emitJsonSchemasModule(defs, liveDefs));
  files.set(`${OUT_DIR}/standard.ts`, emitStandardModule(collected.schemas, defs));
  files.set(`${OUT_DIR}/standard-table.ts`, emitStandardTableModule(collected.schemas));
  return files;
}
