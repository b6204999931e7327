import { matchRoute, paging, type PagedOperationId, type PagingRule } from '@x/common';
import type { RecordedEntry } from './entries.js';

/** The longest cursor quoted in a message; the whole one is in the recording. */
const SHOWN_CURSOR = 64;

const quote = (cursor: string): string => JSON.stringify(cursor.length > SHOWN_CURSOR ? `${cursor.slice(0, SHOWN_CURSOR)}...` : cursor);

/**
 * The header-cursor listings of a recording (v3: the next page's start is the `x-supra-cursor` response
 * header, opaque: "take it from this header, never build it"). Fed a recording's entries in order, it
 * says of each request that sends such a cursor whether an earlier response of the same listing, for the
 * same path parameters (the account), gave it in that header. A cursor no recorded response gave was
 * built or carried over from elsewhere, and the walk it continues is not the one recorded.
 *
 * Listings whose next start is a sequence number or a body cursor (v1, v2, v3 transactions) are not
 * checked: their starts are documented values a client may choose (0, a sequence number).
 *
 * @example
 * ```ts
 * const cursors = headerCursors();
 * for (const entry of entries) {
 *   const problem = cursors.check(entry); // a message, or undefined
 *   cursors.note(entry);
 * }
 * ```
 */
export function headerCursors(): { check(entry: RecordedEntry): string | undefined; note(entry: RecordedEntry): void } {
  const given = new Map<string, Set<string>>();
  /** The header-cursor listing an entry belongs to, with the key of its path parameters. */
  const listingOf = (entry: RecordedEntry): { operationId: PagedOperationId; key: string; query: URLSearchParams } | undefined => {
    let url: URL;
    try {
      url = new URL(entry.url, 'http://recorded.invalid');
    } catch {
      return undefined;
    }
    const match = matchRoute(url.pathname, { method: entry.method, suffix: true });
    if (!match || !Object.hasOwn(paging, match.route.operationId)) return undefined;
    const operationId = match.route.operationId as PagedOperationId;
    if (paging[operationId].next.from !== 'header') return undefined;
    return { operationId, key: `${operationId} ${JSON.stringify(match.params)}`, query: url.searchParams };
  };
  return {
    check(entry) {
      const listing = listingOf(entry);
      if (!listing) return undefined;
      const rule: PagingRule = paging[listing.operationId];
      const name = rule.start ?? 'start';
      const header = rule.next.from === 'header' ? rule.next.name : '';
      for (const cursor of listing.query.getAll(name)) {
        if (given.get(listing.key)?.has(cursor)) continue;
        return (
          `the cursor ${name}=${quote(cursor)} was not given by the ${header} header of an earlier recorded response ` +
          `of ${listing.operationId} for these path parameters (a cursor is taken from that header, never built)`
        );
      }
      return undefined;
    },
    note(entry) {
      if (entry.status < 200 || entry.status > 299) return;
      const listing = listingOf(entry);
      const rule: PagingRule | undefined = listing && paging[listing.operationId];
      if (!listing || rule?.next.from !== 'header') return;
      const cursor = entry.headers[rule.next.name.toLowerCase()];
      if (cursor === undefined || cursor === '') return;
      given.set(listing.key, (given.get(listing.key) ?? new Set()).add(cursor));
    },
  };
}

