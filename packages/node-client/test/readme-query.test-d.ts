/**
 * The README's React example of `@x/node-client/query`, type-checked: the region below is shown in the
 * README verbatim (readme-query.test.ts holds them equal). Hooks are not called here, only typed.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { ClientError, TransactionV3 } from '@x/node-client';

// #region readme-react
import { createNodeClient } from '@x/node-client';
import { createNodeQueries } from '@x/node-client/query';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';

const queries = createNodeQueries(createNodeClient({ baseUrl: 'http://127.0.0.1:27000' }));

export function useSequenceNumber(address: string) {
  const { data, error } = useQuery(queries.v3.getAccount(address)); // data: AccountData | undefined, error: AnyClientError | null (narrow by code)
  return { sequenceNumber: data?.sequence_number, failed: error?.code };
}

export function useHistory(address: string) {
  const history = useInfiniteQuery(queries.v3.coinTransactions(address, { order: 'desc', pageSize: 25 }));
  const transactions = history.data?.pages.flatMap((page) => page.items) ?? []; // TransactionV3[], sent and received, newest first
  return { transactions, more: history.hasNextPage ? () => history.fetchNextPage() : undefined };
}
// #endregion readme-react

describe('README: TanStack Query in React', () => {
  it('infers every type of the example', () => {
    expectTypeOf<ReturnType<typeof useSequenceNumber>['sequenceNumber']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<ReturnType<typeof useSequenceNumber>['failed']>().toEqualTypeOf<ClientError['code'] | undefined>();
    expectTypeOf<ReturnType<typeof useHistory>['transactions']>().toEqualTypeOf<TransactionV3[]>();
  });
});
