import { expect, it } from 'vitest';
import { AccountData, TypeTag, responses, standardSchema } from '@x/validators/standard';

it('gives the JSON Schema of each reading', () => {
  expect(AccountData['~standard'].jsonSchema.output({ target: 'draft-2020-12' })).toMatchObject({
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    required: ['sequence_number', 'authentication_key'],
    properties: { authentication_key: { $ref: '#/$defs/Hash' } },
    $defs: { Hash: { type: 'string', pattern: '^(0x)?[0-9a-fA-F]+$' } },
  });
  const strict = standardSchema('AccountData', { strict: true })['~standard'].jsonSchema.output({ target: 'draft-07' });
  expect(strict).toMatchObject({ $schema: 'http://json-schema.org/draft-07/schema#', additionalProperties: false });

  // OpenAPI 3.0: references inlined, `nullable`; what it cannot express throws
  const v1Account = responses.getAccountV1['200']['~standard'].jsonSchema.output({ target: 'openapi-3.0' });
  expect(v1Account).toMatchObject({ type: 'object', nullable: true });
  expect(() => TypeTag['~standard'].jsonSchema.output({ target: 'openapi-3.0' })).toThrow(
    'TypeTag: JSON Schema target "openapi-3.0" cannot express the recursive schema TypeTag',
  );
});
