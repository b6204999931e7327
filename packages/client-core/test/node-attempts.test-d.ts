/**
 * NodesFailedError's attempts carry client errors (issue 48.4): `error.code` reads without a cast and
 * narrows the class, as every other client error does.
 */
import { describe, expectTypeOf, it } from 'vitest';
import { NodesFailedError, type AnyClientError, type HttpError, type NodeAttempt } from '@x/client-core';

describe('NodesFailedError.attempts', () => {
  it('each error is an AnyClientError whose code narrows it', () => {
    expectTypeOf<NodeAttempt['error']>().toEqualTypeOf<AnyClientError>();
    const err = new NodesFailedError([]);
    for (const { url, error } of err.attempts) {
      expectTypeOf(url).toEqualTypeOf<string>();
      expectTypeOf(error.code).toEqualTypeOf<AnyClientError['code']>();
      if (error.code === 'HTTP_ERROR') expectTypeOf(error).toExtend<HttpError>();
    }
  });

  it('takes what a router hands over (each node\'s last error, of unknown type)', () => {
    const last: unknown = undefined;
    expectTypeOf(new NodesFailedError([{ url: 'http://a.example', error: last }])).toEqualTypeOf<NodesFailedError>();
  });
});
