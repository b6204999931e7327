import { InvalidArgumentError, ResponseShapeError } from './errors.js';
import { bytesToHex, isWellFormed } from './params.js';
import { readU64, type PagingRule } from '@x/common';

// The paging contract of one listing: declared once, in @x/common, beside the generated table it types.
export type { PagingRule };

/**
 * The longest cursor a walk sends back, in characters (a cursor of bytes: half as many bytes, sent as
 * hex). Real cursors are a u64 or a state key's bytes, a few hundred characters at most; a node that
 * sends a fresh 100 kB cursor with every page would grow each request, and what a walk keeps, without end.
 * @internal
 */
export const MAX_CURSOR_LENGTH = 4096;

/** What a header cursor may hold: printable ASCII, the bytes that mean the same sent back in a URL. */
const PRINTABLE_ASCII = /^[\x21-\x7e]*$/;

/**
 * A page's `start` as a walk carries it: a u64 as a bigint, a cursor as the text sent back.
 * @internal
 */
export type PageStart = bigint | string;

/**
 * One page as a walk reads it: its items, and the next `start` unless the page ends the walk.
 * @internal
 */
export type PageRead = { readonly items: readonly unknown[]; readonly next: PageStart | undefined };

/**
 * JSON Pointer segments as the pointer's text (`['a', 'b/c']` -> `/a/b~1c`).
 *
 * @example
 * ```ts
 * pointerText(['Modules', 'modules']); // '/Modules/modules'
 * ```
 * @internal
 */
export const pointerText = (segments: readonly string[]): string => segments.map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

/** The value at `segments` below `value`; every step but the last must be an object. */
/**
 * The value at JSON Pointer `segments` in a body, or a `ResponseShapeError` (of `operationId`, at
 * `base` + the pointer so far) where a step is not an object: how a page's items, a cursor or any field a
 * client reads by a rule is found.
 *
 * @example
 * ```ts
 * pointerValue({ header: { height: 5 } }, ['header', 'height'], 'getLatestBlockV3'); // 5
 * ```
 * @internal
 */
export function pointerValue(value: unknown, segments: readonly string[], operationId: string, base = ''): unknown {
  let cur = value;
  for (let i = 0; i < segments.length; i++) {
    if (typeof cur !== 'object' || cur === null || Array.isArray(cur)) {
      throw new ResponseShapeError({ operationId, path: base + pointerText(segments.slice(0, i)), expected: 'an object' });
    }
    cur = (cur as Record<string, unknown>)[segments[i] as string];
  }
  return cur;
}

/** A u64 the server sent as a JSON number, as the spec types it (a safe integer; a larger one has lost its value in `JSON.parse`). */
const u64 = (value: unknown): bigint | undefined => (typeof value === 'number' ? readU64(value) : undefined);

/**
 * Reads one page of a listing as its paging rule says: the items, and the next `start`, or
 * `undefined` when the page ends the walk (a short or empty page, a zero, null or empty cursor, a null
 * body, as the rule lists). What the walk needs and the page lacks is a `ResponseShapeError` naming
 * where. `count` is the page size asked for (for `short-page`).
 *
 * @example
 * ```ts
 * import { paging } from '@x/common';
 * readPage('listTransactionsV2', paging.listTransactionsV2, { record: [{ header: { sequence_number: 4 } }] }, 1);
 * // { items: [...], next: 5n }
 * ```
 * @internal
 */
export function readPage(operationId: string, rule: PagingRule, body: unknown, count?: number): PageRead {
  const ends = rule.ends;
  const { next } = rule;
  if (body === null && ends.includes('null-body')) return { items: [], next: undefined };
  // A header cursor's page comes as the transport hands it: the items at the rule's pointer and the header's cursor.
  const page = next.from === 'header' ? (body as { items?: unknown; cursor?: unknown } | null) : undefined;
  const root = page ? page?.items : body;
  if (!page && (typeof root !== 'object' || root === null || (Array.isArray(root) && rule.items.length > 0))) {
    throw new ResponseShapeError({ operationId, path: '', expected: rule.items.length > 0 ? 'an object' : 'an array' });
  }
  const items = page ? root : pointerValue(root as object, rule.items, operationId, '');
  if (!Array.isArray(items)) throw new ResponseShapeError({ operationId, path: pointerText(rule.items), expected: 'an array' });
  // More than asked would keep a walk going past any limit a caller set on its pages, and no node sends it.
  if (count !== undefined && items.length > count) throw new ResponseShapeError({ operationId, path: pointerText(rule.items), expected: `at most the ${count} items asked for, got ${items.length}` });
  // A cursor is checked even on a page that ends the walk: a malformed one is the server's error either way.
  const cursor = next.from === 'response' ? readCursor(operationId, rule, root as object) : next.from === 'header' ? headerCursor(operationId, rule, next, page?.cursor) : undefined;
  if (items.length === 0 && ends.includes('empty-page')) return { items, next: undefined };
  if (count !== undefined && items.length < count && ends.includes('short-page')) return { items, next: undefined };
  if (next.from !== 'last-item') return { items, next: cursor };
  if (items.length === 0) return { items, next: undefined };
  const last = items.length - 1;
  return { items, next: itemKey(operationId, rule, items[last], `${pointerText(rule.items)}/${last}`) + BigInt(next.add) };
}

/** A header's cursor as the next `start`: absent or empty ends the walk where the rule says so; a u64 comes as its decimal digits. */
function headerCursor(operationId: string, rule: PagingRule, next: { readonly name: string; readonly encoding: string }, value: unknown): PageStart | undefined {
  const where = `header ${next.name}`;
  if (value === undefined || value === null) {
    if (rule.ends.includes('null-cursor')) return undefined;
  } else if (typeof value === 'string') {
    if (value === '' && rule.ends.includes('empty-cursor')) return undefined;
    if (next.encoding === 'u64') {
      const n = readU64(value);
      if (n !== undefined) return n;
      throw new ResponseShapeError({ operationId, path: where, expected: 'a u64 in decimal digits' });
    }
    // A header's bytes come as Latin-1 and go back in a URL as UTF-8: only printable ASCII round-trips.
    if (value.length <= MAX_CURSOR_LENGTH && PRINTABLE_ASCII.test(value)) return value;
    throw new ResponseShapeError({ operationId, path: where, expected: `a cursor of at most ${MAX_CURSOR_LENGTH} printable ASCII characters` });
  }
  throw new ResponseShapeError({ operationId, path: where, expected: 'a cursor' });
}

/**
 * The pointer of a rule's next start: into the last item, or into the response; none for a header.
 * @internal
 */
export const nextPointer = (rule: PagingRule): readonly string[] => (rule.next.from === 'header' ? [] : rule.next.pointer);

/** The response's cursor as the next `start`, or undefined where the rule ends the walk on it. */
function readCursor(operationId: string, rule: PagingRule, body: object): PageStart | undefined {
  const { ends, next } = rule;
  const pointer = nextPointer(rule);
  const cursor = pointerValue(body, pointer, operationId, '');
  if (cursor == null) {
    if (ends.includes('null-cursor')) return undefined;
  } else if (next.encoding === 'u64') {
    const value = u64(cursor);
    if (value !== undefined) return value === 0n && ends.includes('zero-cursor') ? undefined : value;
  } else if (typeof cursor === 'string') {
    if (cursor.length > MAX_CURSOR_LENGTH || !isWellFormed(cursor)) {
      throw new ResponseShapeError({ operationId, path: pointerText(pointer), expected: `a cursor of at most ${MAX_CURSOR_LENGTH} characters of well-formed text` });
    }
    return cursor === '' && ends.includes('empty-cursor') ? undefined : cursor;
  } else if (
    next.encoding === 'u8-bytes-or-hex' &&
    Array.isArray(cursor) &&
    cursor.length <= MAX_CURSOR_LENGTH / 2 &&
    cursor.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)
  ) {
    // The bytes go back as lowercase hex, the form a live node sends them in.
    return cursor.length === 0 && ends.includes('empty-cursor') ? undefined : bytesToHex(cursor as number[]);
  }
  const expected = { u64: 'a u64', string: 'a string', 'u8-bytes-or-hex': 'an array of u8 or a hex string' }[next.encoding];
  throw new ResponseShapeError({ operationId, path: pointerText(pointer), expected: ends.includes('null-cursor') ? `${expected} or null` : expected });
}

/**
 * Whether a walk may go on to `next` after `previous`: not when the rule ends on a cursor that does
 * not advance (a u64 that is not larger) or on one the walk has already sent (`seen`: a `Set`, or the
 * bounded digests of a `Recent`).
 *
 * @example
 * ```ts
 * advances(paging.listCoinTransactionsV2, 5n, 7n, new Set([7n])); // false: a u64 cursor must grow
 * ```
 * @internal
 */
export function advances(rule: PagingRule, next: PageStart, previous: PageStart | undefined, seen: { has(start: PageStart): boolean }): boolean {
  if (rule.ends.includes('repeated-cursor') && seen.has(next)) return false;
  if (rule.ends.includes('not-advancing') && previous !== undefined && typeof next === 'bigint' && typeof previous === 'bigint' && next <= previous) return false;
  return true;
}

/**
 * The sort key of an item of a predictable listing (its sequence number), read where the rule's
 * `next.pointer` says, for walks that check or order pages by it.
 *
 * @example
 * ```ts
 * itemKey('listTransactionsV2', paging.listTransactionsV2, { header: { sequence_number: 4 } }, '/record/0'); // 4n
 * ```
 * @internal
 */
export function itemKey(operationId: string, rule: PagingRule, item: unknown, path: string): bigint {
  let value: unknown = item;
  const pointer = nextPointer(rule);
  for (const key of pointer) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  const key = u64(value);
  if (key === undefined) throw new ResponseShapeError({ operationId, path: path + pointerText(pointer), expected: 'a u64' });
  return key;
}

/**
 * A caller's `start` as the listing takes it back: where the rule reads u8-byte cursors, an array of
 * u8 (as a v1 listing returns it) goes as lowercase hex; anything else goes on to the parameter check.
 *
 * @example
 * ```ts
 * startParam(paging.listModulesV1, [0, 171, 255]); // '00abff'
 * ```
 * @internal
 */
export function startParam(rule: PagingRule, start: unknown): unknown {
  if (rule.next.encoding !== 'u8-bytes-or-hex' || !Array.isArray(start)) return start;
  if (!start.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) {
    throw new InvalidArgumentError('start', 'a cursor array must hold u8 integers (0 to 255)');
  }
  return bytesToHex(start as number[]);
}
