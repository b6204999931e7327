import { useQuery } from '@tanstack/react-query';
import type { NodeQueries } from '@x/node-client/query';
import { Loading } from '../ui/ErrorState.tsx';
import { PageError } from './PageError.tsx';
import { readTransaction } from './read.ts';
import { EntryCall, EventList, TransactionSummary } from './TransactionDetails.tsx';

/** One transaction by its hash (`?tx=`), read with `getTransaction` of v3, as the node has it. */
export function TransactionPage({ node, hash }: { node: NodeQueries; hash: string }) {
  const query = useQuery({ ...node.v3.getTransaction(hash), select: readTransaction });
  let body;
  if (query.isPending) body = <Loading what="transaction" />;
  else if (query.error) body = <PageError error={query.error} notFound="No such transaction" onRetry={() => void query.refetch()} />;
  else
    body = (
      <>
        <TransactionSummary tx={query.data} />
        <EntryCall call={query.data.call} />
        <EventList events={query.data.events} />
      </>
    );
  return (
    <section aria-labelledby="tx-heading" className="panel">
      <h2 id="tx-heading">Transaction</h2>
      <p className="subject">
        <code data-testid="tx-hash">{hash}</code>
      </p>
      {body}
    </section>
  );
}
