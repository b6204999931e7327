import type { AnyClientError, HistoryPrunedError } from '@x/node-client';
import { ErrorState } from '../ui/ErrorState.tsx';
import { Link } from '../ui/Link.tsx';

/**
 * A node that prunes its history answers 410 for what lies below the oldest block it keeps
 * (`HistoryPrunedError`): the record existed, so this is not "not found"; the way on is the oldest block.
 */
function Pruned({ error }: { error: HistoryPrunedError }) {
  const oldest = error.oldestBlock;
  return (
    <div className="state error">
      <div role="alert">
        <strong>Pruned: the node no longer keeps this history</strong>
        <span>
          {oldest === undefined ? (
            'The node answered 410 without naming the oldest block it keeps.'
          ) : (
            <>
              The node keeps blocks from height{' '}
              <Link to={{ page: 'block', height: String(oldest) }}>
                <span data-testid="oldest-block">{String(oldest)}</span>
              </Link>{' '}
              on (HTTP 410).
            </>
          )}
        </span>
      </div>
    </div>
  );
}

/** The error of a transaction or block page: pruned, or any other the way the account page shows it. */
export function PageError({ error, notFound, onRetry }: { error: AnyClientError; notFound: string; onRetry: () => void }) {
  // The code narrows the union to HistoryPrunedError, whose oldestBlock the pruned state shows.
  if (error.code === 'HISTORY_PRUNED') return <Pruned error={error} />;
  return <ErrorState error={error} notFound={notFound} onRetry={onRetry} />;
}
