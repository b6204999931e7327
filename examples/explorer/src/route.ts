/**
 * Which page the app shows, kept in the URL's query as the account already was (`?account=`), so that a
 * page can be linked to, reloaded and reached with the browser's back and forward buttons:
 *
 * - `?tx=<hash>`: a transaction;
 * - `?block=<height>`: a block;
 * - otherwise the account page (`?account=<address>`, optional).
 *
 * The value is kept as the URL gives it: the node client checks it (a bad one is the query's
 * `InvalidArgumentError`, before any request), so the page shows the client's own message.
 */
import { useSyncExternalStore } from 'react';

export type Route = { page: 'account'; address: string } | { page: 'transaction'; hash: string } | { page: 'block'; height: string };

/** The query parameters that choose a page; every other one (`node`, `timeout`, `shapes`, …) is kept across links. */
const PAGE_PARAMS = ['account', 'tx', 'block'] as const;

export function routeOf(search: string): Route {
  const params = new URLSearchParams(search);
  const hash = params.get('tx');
  if (hash !== null) return { page: 'transaction', hash };
  const height = params.get('block');
  if (height !== null) return { page: 'block', height };
  return { page: 'account', address: params.get('account') ?? '' };
}

/** The page's address for a route: the current URL's other parameters, and the route's own. */
export function hrefOf(route: Route): string {
  const url = new URL(location.href);
  for (const name of PAGE_PARAMS) url.searchParams.delete(name);
  if (route.page === 'transaction') url.searchParams.set('tx', route.hash);
  else if (route.page === 'block') url.searchParams.set('block', route.height);
  else if (route.address) url.searchParams.set('account', route.address);
  return `${url.pathname}${url.search}`;
}

// `pushState` fires no event; this one tells the subscribers below, as `popstate` does for back and forward.
const NAVIGATED = 'explorer:navigate';

/** Opens another page without reloading: the clients, the stubs and the query cache stay. */
export function navigate(href: string): void {
  history.pushState(null, '', href);
  window.dispatchEvent(new Event(NAVIGATED));
  window.scrollTo(0, 0);
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener(NAVIGATED, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(NAVIGATED, onChange);
  };
}

/** The current route, re-read on every navigation (a link, back, forward). */
export function useRoute(): Route {
  const search = useSyncExternalStore(subscribe, () => location.search);
  return routeOf(search);
}
