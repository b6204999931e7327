import { useQuery } from '@tanstack/react-query';
import type { NodeQueries } from '@x/node-client/query';
import { PageBody } from './PageError.tsx';
import { readTransaction } from './read.ts';
import { EntryCall, EventList, TransactionSummary } from './TransactionDetails.tsx';

/** One transaction by its hash (`?tx=`), read with `getTransaction` of v3, as the node has it. */
export function TransactionPage({ node, hash }: { node: NodeQueries; hash: string }) {
  const query = useQuery({ ...node.v3.getTransaction(hash), select: readTransaction });
  return (
    <section aria-labelledby="tx-heading" className="panel">
      <h2 id="tx-heading">Transaction</h2>
      <p className="subject">
        <code data-testid="tx-hash">{hash}</code>
      </p>
      <PageBody query={query} what="transaction" notFound="No such transaction">
        {(tx) => (
          <>
            <TransactionSummary tx={tx} />
            <EntryCall call={tx.call} />
            <EventList events={tx.events} />
          </>
        )}
      </PageBody>
    </section>
  );
}
