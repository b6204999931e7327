/** The record types are the union of the documented and the live form; the helpers read either. */
import { describe, expectTypeOf, test } from 'vitest';
import type { Event, MoveModule, SmrTimestamp, SmrTransactionHeader } from '@x/node-client';
import { eventGuid, eventSequenceNumber, moduleFunctions, senderAddress, timestampMicros, type AbiFunction, type EventGuid } from '@x/node-client/shapes';

describe('live and documented forms are one union', () => {
  test('a timestamp must be narrowed before a field is read', () => {
    const read = (ts: SmrTimestamp): number => {
      // @ts-expect-error -- `timestamp` exists only on the documented form
      void ts.timestamp;
      return 'microseconds_since_unix_epoch' in ts ? ts.microseconds_since_unix_epoch : ts.timestamp;
    };
    void read;
    expectTypeOf(timestampMicros).parameter(0).toEqualTypeOf<SmrTimestamp>();
    expectTypeOf(timestampMicros).returns.toEqualTypeOf<number>();
  });

  test('a sender is a string or { Move }', () => {
    expectTypeOf<SmrTransactionHeader['sender']>().toEqualTypeOf<string | { Move: string }>();
    const s: SmrTransactionHeader['sender'] = { Move: '0x1' };
    // @ts-expect-error -- a string method is not there before narrowing
    void s.toLowerCase();
    expectTypeOf(senderAddress(s)).toEqualTypeOf<string>();
  });

  test('event guid and sequence number', () => {
    expectTypeOf<Event['sequence_number']>().toEqualTypeOf<number | string>();
    expectTypeOf<Event['guid']>().toEqualTypeOf<string | { creation_number: string; account_address: string }>();
    expectTypeOf(eventGuid).returns.toEqualTypeOf<EventGuid | undefined>();
    expectTypeOf(eventSequenceNumber).returns.toEqualTypeOf<bigint>();
  });

  test('module ABI functions are the live array form', () => {
    expectTypeOf(moduleFunctions).returns.toEqualTypeOf<AbiFunction[]>();
    expectTypeOf<AbiFunction['visibility']>().toEqualTypeOf<'public' | 'friend' | 'private'>();
    const count = (fns: MoveModule['exposed_functions']): number =>
      // @ts-expect-error -- the documented form is an object: no `length` before narrowing
      fns.length;
    void count;
  });
});
