import { useEffect, useRef, type ReactNode } from 'react';
import { ErrorState, Loading } from './ErrorState.tsx';

/** What the list needs of a `useInfiniteQuery` result whose `select` flattened the pages into items. */
export interface InfiniteItems<T> {
  data: T[] | undefined;
  error: unknown;
  isPending: boolean;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

interface Props<T> {
  title: string;
  query: InfiniteItems<T>;
  empty: string;
  itemKey: (item: T) => string;
  children: (item: T) => ReactNode;
}

/**
 * A titled, scrollable list that fetches its next page when its end scrolls into view (and on a
 * "Load more" button, for keyboards and screen readers).
 */
export function InfiniteList<T>({ title, query, empty, itemKey, children }: Props<T>) {
  const box = useRef<HTMLDivElement>(null);
  const end = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;

  useEffect(() => {
    if (!hasNextPage || isFetchingNextPage || !end.current) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) void fetchNextPage();
    }, { root: box.current, rootMargin: '40px' });
    observer.observe(end.current);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  let body: ReactNode;
  if (query.isPending) body = <Loading what={title.toLowerCase()} />;
  else if (query.error && !query.data) body = <ErrorState error={query.error} />;
  else if (!query.data?.length) body = <p className="state empty">{empty}</p>;
  else
    body = (
      <div className="scroll" ref={box} tabIndex={0} role="region" aria-label={title}>
        <ol className="rows">
          {query.data.map((item) => (
            <li key={itemKey(item)}>{children(item)}</li>
          ))}
        </ol>
        <div ref={end} className="list-end">
          {query.error ? <ErrorState error={query.error} /> : null}
          {isFetchingNextPage ? <Loading what="more" /> : null}
          {hasNextPage && !isFetchingNextPage ? (
            <button type="button" onClick={() => void fetchNextPage()}>
              Load more
            </button>
          ) : null}
          {!hasNextPage ? <span className="muted">End of list ({query.data.length})</span> : null}
        </div>
      </div>
    );

  return (
    <section className="list">
      <h3>
        {title}
        {query.data?.length ? <span className="count"> ({query.data.length}{hasNextPage ? '+' : ''})</span> : null}
      </h3>
      {body}
    </section>
  );
}
