import { useInfiniteQuery } from '@tanstack/react-query';
import type { TransactionInfoV2 } from '@x/node-client';
import type { NodeQueries } from '@x/node-client/query';
import { senderAddress, timestampDate } from '@x/node-client/shapes';
import { InfiniteList } from '../ui/InfiniteList.tsx';
import { dateTime, sameAddress, short } from '../ui/format.ts';
import { Link } from '../ui/Link.tsx';

const PAGE = 25;

function TransactionRow({ tx, account }: { tx: TransactionInfoV2; account: string }) {
  const sender = senderAddress(tx.header.sender);
  const when = tx.block_header ? dateTime(timestampDate(tx.block_header.timestamp)) : 'not in a block';
  return (
    <div className="row">
      <span className="seq">#{tx.header.sequence_number}</span>
      <time>{when}</time>
      <span className={`status ${tx.status.toLowerCase()}`}>{tx.status}</span>
      <Link to={{ page: 'transaction', hash: tx.hash }} title={tx.hash}>
        <code>{short(tx.hash)}</code>
      </Link>
      <span className="muted">{sameAddress(sender, account) ? 'sent' : <>from <code title={sender}>{short(sender)}</code></>}</span>
    </div>
  );
}

/** The transactions the account sent, newest first, page after page as the list scrolls. */
export function TransactionList({ node, address }: { node: NodeQueries; address: string }) {
  const query = useInfiniteQuery({
    ...node.v2.transactions(address, { order: 'desc', pageSize: PAGE }),
    select: (data) => data.pages.flatMap((page) => page.record),
  });
  return (
    <InfiniteList title="Transactions" query={query} empty="No transactions sent." itemKey={(tx) => tx.hash}>
      {(tx) => <TransactionRow tx={tx} account={address} />}
    </InfiniteList>
  );
}

/**
 * Coin transactions sent and received, oldest first: their cursors are block timestamps, so there is no
 * documented way back from the newest page (see the node client's README, "Newest first").
 */
export function CoinTransactionList({ node, address }: { node: NodeQueries; address: string }) {
  const query = useInfiniteQuery({
    ...node.v2.coinTransactions(address, { pageSize: PAGE }),
    select: (data) => data.pages.flatMap((page) => page.record),
  });
  return (
    <InfiniteList title="Coin transactions" query={query} empty="No coin transactions." itemKey={(tx) => tx.hash}>
      {(tx) => <TransactionRow tx={tx} account={address} />}
    </InfiniteList>
  );
}
