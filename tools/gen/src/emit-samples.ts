/**
 * `packages/testing/src/generated/samples.ts`: a valid sample of the 200 answer of every operation of
 * both specs, by operationId. The fake node and the fake price service answer an operation they have no
 * handler for with it (marked `x-stub-sample: true`) until a handler is written, so an operation added to
 * a spec is answered as soon as `pnpm gen` ran; they read no spec at run time.
 */
import { header } from './files.ts';
import { okSchema, sampleOf } from './samples.ts';
import { HTTP_METHODS, type Spec } from './specs.ts';

/** The 200 sample of every operation of `spec` that answers JSON, in the spec's order. */
export function operationSamples(spec: Spec): Record<string, unknown> {
  const samples: Record<string, unknown> = {};
  for (const [path, item] of Object.entries(spec.doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!HTTP_METHODS.has(method)) continue;
      const schema = okSchema(spec.doc, op.responses);
      if (schema !== undefined) samples[op.operationId] = sampleOf(spec.doc, schema, `${spec.file}: ${method.toUpperCase()} ${path} 200`);
    }
  }
  return samples;
}

const exportName = { 'node-rpc': 'nodeRpcSamples', 'price-history': 'priceHistorySamples' } as const;

/** The module: one constant per spec, each a record of operationId to sample. */
export function emitSamples(specs: readonly Spec[]): string {
  const blocks = specs.map((spec) => {
    const name = exportName[spec.name];
    return `/**
 * A valid sample of the 200 answer of every operation of \`${spec.file}\`, by operationId (required
 * properties only, the fewest items): what the stub answers, marked \`x-stub-sample: true\`, for an
 * operation it has no handler for yet.
 */
export const ${name}: Readonly<Record<string, unknown>> = ${JSON.stringify(operationSamples(spec), null, 2)};
`;
  });
  return `${header(specs.map((s) => s.file).join(' and '))}\n${blocks.join('\n')}`;
}
