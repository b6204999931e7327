import type { ReactNode } from 'react';

/**
 * A titled list of items known in full (a block's transactions, a transaction's events): its count in
 * the title, `empty` when there are none. `InfiniteList` is the one for pages still to fetch.
 */
export function CountedList<T>({ title, label, items, empty, itemKey, children }: { title: string; label: string; items: readonly T[]; empty: string; itemKey: (item: T, index: number) => string | number; children: (item: T) => ReactNode }) {
  return (
    <section className="list">
      <h3>
        {title} <span className="count">({items.length})</span>
      </h3>
      {items.length === 0 ? (
        <p className="state empty">{empty}</p>
      ) : (
        <ol className="rows" aria-label={label}>
          {items.map((item, i) => (
            <li key={itemKey(item, i)}>{children(item)}</li>
          ))}
        </ol>
      )}
    </section>
  );
}
