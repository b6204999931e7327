import type { MouseEvent, ReactNode } from 'react';
import { hrefOf, navigate, type Route } from '../route.ts';

/**
 * A link to another page of the app. It is a real `<a href>` (open in a new tab, copy the address), and a
 * plain click moves there without reloading the page, so the in-page stubs and the query cache stay.
 */
export function Link({ to, title, children }: { to: Route; title?: string; children: ReactNode }) {
  const href = hrefOf(to);
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    // A modified or middle click is the browser's own (new tab, new window, download).
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(href);
  };
  return (
    <a href={href} title={title} onClick={onClick}>
      {children}
    </a>
  );
}
