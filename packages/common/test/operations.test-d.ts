/**
 * Checked by `tsc` (`pnpm typecheck`, the root tsconfig.json); nothing here runs.
 *
 * Every entry of the operation tables that has a `paging` key is a listing whose rule is a PagingRule:
 * an entry whose rule did not conform would drop out of `PagedOperationId` (and `paging`'s type) silently.
 */
import { expectTypeOf } from 'vitest';
import type { OperationTable, PagedOperationId } from '@x/common';

type WithPagingKey = { [Id in keyof OperationTable]: OperationTable[Id] extends { readonly paging: unknown } ? Id : never }[keyof OperationTable];

expectTypeOf<WithPagingKey>().toEqualTypeOf<PagedOperationId>();
expectTypeOf<'listTransactionsV2' | 'listEventsV3'>().toExtend<PagedOperationId>();
