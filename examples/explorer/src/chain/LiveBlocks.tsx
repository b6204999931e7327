import { useQuery } from '@tanstack/react-query';
import type { NodeClient } from '@x/node-client';
import { timestampDate } from '@x/node-client/shapes';
import { ErrorState } from '../ui/ErrorState.tsx';
import { dateTime, short } from '../ui/format.ts';
import { Link } from '../ui/Link.tsx';
import { LIVE_BLOCKS, liveBlocksQuery } from './live-blocks.ts';

/** The newest blocks as the node commits them, each a link to its page. */
export function LiveBlocks({ node }: { node: NodeClient }) {
  const live = useQuery(liveBlocksQuery(node));
  return (
    <section aria-labelledby="live-blocks-heading" className="panel">
      <h2 id="live-blocks-heading">Latest blocks</h2>
      <p className="muted">
        Live: the {LIVE_BLOCKS} newest, as the node commits them (<code>node.watchBlocks</code>, its WebSocket with REST filling any gap).
      </p>
      {live.error ? (
        <ErrorState error={live.error} />
      ) : live.data === undefined || live.data.length === 0 ? (
        <p className="state loading">Waiting for the next block…</p>
      ) : (
        <ol className="rows live-blocks" aria-label="Latest blocks">
          {live.data.map((header) => (
            <li key={header.height} className="row">
              <span className="seq">
                <Link to={{ page: 'block', height: String(header.height) }}>#{header.height}</Link>
              </span>
              <time>{dateTime(timestampDate(header.timestamp))}</time>
              <code title={header.hash}>{short(header.hash)}</code>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
