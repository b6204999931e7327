import { useQuery } from '@tanstack/react-query';
import type { NodeQueries } from '@x/node-client/query';
import { Link } from '../ui/Link.tsx';
import { BlockHeader, BlockStatistics, BlockTransactions } from './BlockDetails.tsx';
import { PageBody } from './PageError.tsx';
import { readBlock } from './read.ts';

/**
 * The blocks on either side. The next one may not exist yet (the node answers 404 for a height above its
 * latest): asking for the latest block first would cost a request on every page, and the 404 says it.
 */
function BlockNav({ height }: { height: number }) {
  return (
    <nav className="block-nav" aria-label="Neighbouring blocks">
      {height > 0 ? <Link to={{ page: 'block', height: String(height - 1) }}>← Previous block ({height - 1})</Link> : <span />}
      <Link to={{ page: 'block', height: String(height + 1) }}>Next block ({height + 1}) →</Link>
    </nav>
  );
}

/** One block by its height (`?block=`), with its transactions, read with `getBlockByHeight` of v3. */
export function BlockPage({ node, height }: { node: NodeQueries; height: string }) {
  const query = useQuery({ ...node.v3.getBlockByHeight(height, { with_finalized_transactions: true }), select: readBlock });
  return (
    <section aria-labelledby="block-heading" className="panel">
      <h2 id="block-heading">Block</h2>
      <p className="subject">
        Height <span data-testid="block-height">{height}</span>
      </p>
      <PageBody query={query} what="block" notFound="No such block">
        {(block) => (
          <>
            <BlockNav height={block.height} />
            <BlockHeader block={block} />
            <BlockStatistics statistics={block.statistics} />
            <BlockTransactions transactions={block.transactions} />
          </>
        )}
      </PageBody>
    </section>
  );
}
