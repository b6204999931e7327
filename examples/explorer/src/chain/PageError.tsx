import type { UseQueryResult } from '@tanstack/react-query';
import type { AnyClientError, HistoryPrunedError } from '@x/node-client';
import type { ReactNode } from 'react';
import { ErrorState, Loading } from '../ui/ErrorState.tsx';
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

/**
 * What a transaction or block page shows of its query: loading, its error (`PageError`), or `children`
 * of the data.
 */
export function PageBody<T>({ query, what, notFound, children }: { query: UseQueryResult<T, AnyClientError>; what: string; notFound: string; children: (data: T) => ReactNode }) {
  if (query.isPending) return <Loading what={what} />;
  if (query.error) return <PageError error={query.error} notFound={notFound} onRetry={() => void query.refetch()} />;
  return <>{children(query.data)}</>;
}
