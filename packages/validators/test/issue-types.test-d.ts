/**
 * One issue type, one validator type: `Issue` and `ResponseValidator` of the validators are the very
 * types the clients export as `ValidationIssue` and `ResponseValidator`, each declared once in
 * `@x/common`, which both sides share without depending on each other.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { ResponseValidator as CommonResponseValidator, ValidationIssue as CommonValidationIssue } from '@x/common';
import type { ResponseValidationError, ResponseValidator as CoreResponseValidator, ValidationIssue } from '@x/client-core';
import type { NodeClientOptions } from '@x/node-client';
import type { PriceClientOptions } from '@x/price-client';
import { createResponseValidator, type Issue, type ResponseValidator, type ValidationResult } from '@x/validators';

describe('one issue type', () => {
  it('Issue is ValidationIssue', () => {
    expectTypeOf<Issue>().toEqualTypeOf<ValidationIssue>();
    expectTypeOf<Issue>().toEqualTypeOf<CommonValidationIssue>();
    expectTypeOf<ResponseValidationError['issues']>().toEqualTypeOf<readonly Issue[]>();
    expectTypeOf<Extract<ValidationResult<unknown>, { ok: false }>['issues']>().toEqualTypeOf<readonly ValidationIssue[]>();
  });

  it('ResponseValidator is the clients’ ResponseValidator', () => {
    expectTypeOf<ResponseValidator>().toEqualTypeOf<CoreResponseValidator>();
    expectTypeOf<ResponseValidator>().toEqualTypeOf<CommonResponseValidator>();
    expectTypeOf(createResponseValidator()).toEqualTypeOf<NonNullable<NodeClientOptions['validator']>>();
    expectTypeOf(createResponseValidator()).toEqualTypeOf<NonNullable<PriceClientOptions['validator']>>();
  });
});
