/** The record types are the union of the documented and the live form; the helpers read either. */
import { describe, expectTypeOf, test } from 'vitest';
import type { Event, MoveModule, SmrTimestamp, SmrTransactionHeader, TransactionV3, TxExecutionStatus } from '@x/node-client';
import {
  eventGuid,
  eventSequenceNumber,
  gasUsed,
  moduleFunctions,
  moduleStructs,
  senderAddress,
  timestampDate,
  timestampMicros,
  transactionOutcome,
  type AbiFunction,
  type EventGuid,
  type OutputKind,
  type TransactionOutcome,
} from '@x/node-client/shapes';

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
    expectTypeOf(timestampDate).parameter(0).toEqualTypeOf<SmrTimestamp>();
    expectTypeOf(timestampDate).returns.toEqualTypeOf<Date>();
    // Both forms are accepted as they are.
    expectTypeOf(timestampMicros).toBeCallableWith({ timestamp: 1 });
    expectTypeOf(timestampMicros).toBeCallableWith({ microseconds_since_unix_epoch: 1, utc_date_time: '1970-01-01T00:00:00.000001+00:00' });
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
    // Either form of an event's guid, as the event carries it.
    expectTypeOf(eventGuid).toBeCallableWith({ guid: '0x1:3' });
    expectTypeOf(eventGuid).toBeCallableWith({ guid: { creation_number: '3', account_address: '0x1' } });
    expectTypeOf<EventGuid>().toEqualTypeOf<{ readonly accountAddress: string; readonly creationNumber: bigint }>();
    expectTypeOf(eventSequenceNumber).toBeCallableWith({ sequence_number: 3 });
    expectTypeOf(eventSequenceNumber).toBeCallableWith({ sequence_number: '3' });
    expectTypeOf(eventSequenceNumber).returns.toEqualTypeOf<bigint>();
  });

  test('module ABI functions and structs are the live array form', () => {
    expectTypeOf(moduleFunctions).returns.toEqualTypeOf<AbiFunction[]>();
    expectTypeOf(moduleStructs).toBeCallableWith({ structs: { Counter: {} } });
    expectTypeOf(moduleStructs).toBeCallableWith({ structs: [{ name: 'Counter', is_native: false, abilities: ['key'], generic_type_params: [], fields: [{ name: 'value', type: 'u64' }] }] });
    expectTypeOf(moduleStructs).returns.items.toHaveProperty('fields');
    expectTypeOf<AbiFunction['visibility']>().toEqualTypeOf<'public' | 'friend' | 'private'>();
    const count = (fns: MoveModule['exposed_functions']): number =>
      // @ts-expect-error -- the documented form is an object: no `length` before narrowing
      fns.length;
    void count;
  });
});

describe('what became of a transaction', () => {
  test("OutputKind is read from TransactionOutput's forms; the readers take any transaction un-narrowed", () => {
    expectTypeOf<OutputKind>().toEqualTypeOf<'Empty' | 'Move' | 'Dkg' | 'Oracle' | 'Evm'>();
    const tx = null as unknown as TransactionV3;
    expectTypeOf(gasUsed(tx)).toEqualTypeOf<bigint | undefined>();
    expectTypeOf(transactionOutcome(tx)).toEqualTypeOf<TransactionOutcome>();
    expectTypeOf(transactionOutcome(tx).status).toEqualTypeOf<TxExecutionStatus | undefined>();
    expectTypeOf(transactionOutcome(tx).output).toEqualTypeOf<OutputKind | undefined>();
  });
});
