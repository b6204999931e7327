/**
 * A walk's resume point as text a consumer stores (a database row, a file) and hands back: where the next
 * page starts, in which mode. Text, not an object, so it survives JSON and needs no schema of its own.
 */
import { InvalidArgumentError } from '@x/client-core';
import { type PageStart } from '@x/client-core/internal';

/**
 * Where a walk goes on: `next` from a page start (ascending, or a cursor listing newest first), `below`
 * through the windows of sequence numbers under a number (newest first over sequence numbers), `height`
 * from a height (range walks; newest first: the exclusive end).
 */
export type WalkMode = { readonly kind: 'next' | 'below' | 'height'; readonly order: 'asc' | 'desc'; readonly at: PageStart };

/**
 * The text of a resume point: `<kind>:<order>:<n|s><value>` (`n` a u64 in decimal, `s` a cursor as sent back).
 *
 * @example
 * ```ts
 * resumeToken({ kind: 'next', order: 'asc', at: 150n }); // 'next:asc:n150'
 * ```
 */
export const resumeToken = (mode: WalkMode): string => `${mode.kind}:${mode.order}:${typeof mode.at === 'bigint' ? `n${mode.at}` : `s${mode.at}`}`;

/**
 * A resume token read back for a walk of `kinds` in `order`, or an `InvalidArgumentError` naming `resume`
 * for one that is not a token, or one of another kind of walk or order.
 *
 * @example
 * ```ts
 * positionOf('next:asc:n150', ['next'], 'asc'); // { kind: 'next', order: 'asc', at: 150n }
 * ```
 */
export function positionOf(token: unknown, kinds: readonly WalkMode['kind'][], order: 'asc' | 'desc'): WalkMode {
  const m = typeof token === 'string' ? /^(next|below|height):(asc|desc):(?:n(0|[1-9][0-9]{0,19})|s(.*))$/s.exec(token) : null;
  if (!m) throw new InvalidArgumentError('resume', 'must be the `resume` of a page of an earlier walk (walk.pages())');
  const kind = m[1] as WalkMode['kind'];
  if (!kinds.includes(kind) || m[2] !== order) throw new InvalidArgumentError('resume', `is the resume point of another walk (${m[1]}, ${m[2]}): resume a walk of the same listing, filters and order`);
  const at: PageStart = m[3] === undefined ? m[4]! : BigInt(m[3]);
  if (typeof at === 'bigint' && at >= 2n ** 64n) throw new InvalidArgumentError('resume', 'holds a position beyond the u64 range');
  return { kind, order, at };
}
