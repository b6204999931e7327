/** The JSON Schema targets `~standard.jsonSchema` supports. */
export const JSON_SCHEMA_TARGETS = ['draft-2020-12', 'draft-07', 'openapi-3.0'] as const;

/** One of {@link JSON_SCHEMA_TARGETS}. */
export type JsonSchemaTarget = (typeof JSON_SCHEMA_TARGETS)[number];

/** The error of a target `~standard.jsonSchema` does not know, naming the ones it does. */
export function unknownTarget(subject: string, target: unknown): Error {
  return new Error(`${subject}: JSON Schema target ${JSON.stringify(target) ?? String(target)} is not supported (supported: ${JSON_SCHEMA_TARGETS.join(', ')})`);
}
