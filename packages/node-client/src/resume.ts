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
export type WalkMode = {
  readonly kind: 'next' | 'below' | 'height';
  readonly order: 'asc' | 'desc';
  /** The page start; none: the listing's default first page (only with `skip`). */
  readonly at: PageStart | undefined;
  /**
   * Items at the head of the page at `at` that the walk already gave: the end of a cursor walk whose last
   * page came without a cursor to go on from, so the walk goes on from that page's start past them.
   */
  readonly skip?: number | undefined;
};

/** The most items a resume point skips: one page, which is at most this long. */
const MAX_SKIP = 1000;

/**
 * The text of a resume point: `<kind>:<order>:[k<skip>:]<n|s|d><value>` (`n` a u64 in decimal, `s` a
 * cursor as sent back, `d` the listing's default first page; `k` the items to skip at its head).
 *
 * @example
 * ```ts
 * resumeToken({ kind: 'next', order: 'asc', at: 150n }); // 'next:asc:n150'
 * resumeToken({ kind: 'next', order: 'asc', at: 'c9', skip: 3 }); // 'next:asc:k3:sc9'
 * ```
 */
export const resumeToken = (mode: WalkMode): string =>
  `${mode.kind}:${mode.order}:${mode.skip ? `k${mode.skip}:` : ''}${typeof mode.at === 'bigint' ? `n${mode.at}` : mode.at === undefined ? 'd' : `s${mode.at}`}`;

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
  const m = typeof token === 'string' ? /^(next|below|height):(asc|desc):(?:k([1-9][0-9]{0,3}):)?(?:n(0|[1-9][0-9]{0,19})|s(.*)|d$)$/s.exec(token) : null;
  if (!m) throw new InvalidArgumentError('resume', 'must be the `resume` of a page of an earlier walk (walk.pages())');
  const kind = m[1] as WalkMode['kind'];
  // A skip goes on from a cursor walk's page start: only an ascending `next` has one.
  if (!kinds.includes(kind) || m[2] !== order || (m[3] !== undefined && (kind !== 'next' || order !== 'asc'))) {
    throw new InvalidArgumentError('resume', `is the resume point of another walk (${m[1]}, ${m[2]}): resume a walk of the same listing, filters and order`);
  }
  const at: PageStart | undefined = m[4] !== undefined ? BigInt(m[4]) : m[5];
  if (typeof at === 'bigint' && at >= 2n ** 64n) throw new InvalidArgumentError('resume', 'holds a position beyond the u64 range');
  const skip = m[3] === undefined ? undefined : Number(m[3]);
  if (at === undefined && skip === undefined) throw new InvalidArgumentError('resume', 'must be the `resume` of a page of an earlier walk (walk.pages())');
  if (skip !== undefined && skip > MAX_SKIP) throw new InvalidArgumentError('resume', `skips more than a page (${MAX_SKIP} items)`);
  return skip === undefined ? { kind, order, at } : { kind, order, at, skip };
}
