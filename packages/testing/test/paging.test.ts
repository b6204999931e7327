/**
 * Every listing of the generated paging table is answered by the node stub where the table says: a walk
 * reading items and cursors only through the table's pointers (a body's, or a header's) visits each of a
 * seeded account's items once. A paged operation the stub does not route, or answers elsewhere than the
 * table's pointers, fails here.
 */
import { describe, expect, it } from 'vitest';
import { paging, type PagedOperationId, type PagingRule } from '@x/common';
import { routes } from '@x/common';
import { createNodeStubFetch, fungibleStoreAddress, STUB_ACCOUNT_FACTS, type AccountFacts, type Shapes } from '../src/index.ts';

const stub = createNodeStubFetch();
const account = STUB_ACCOUNT_FACTS.publisher;

/**
 * Which fact counts a listing's items, by the last segment of its path: v3's fungible-asset transactions
 * are the account's coin transactions, asked at its fungible store; the chain has no automated transactions;
 * the events of `0x1::code::PublishPackage` are one per module the publisher published.
 */
const counted = {
  transactions: 'sent',
  coin_transactions: 'coinTransactions',
  fa_transactions: 'coinTransactions',
  automated_transactions: 'none',
  modules: 'modules',
  resources: 'resources',
  '{event_type}': 'modules',
} as const satisfies Record<string, keyof AccountFacts | 'none'>;

/** The values of a listing's other path parameters. */
const PATH_VALUES: Record<string, string> = { '{event_type}': '0x1::code::PublishPackage' };

/** Where a listing is asked: at the account, or (fa_transactions) at its fungible store. */
const addressFor = (listing: keyof typeof counted): string => (listing === 'fa_transactions' ? fungibleStoreAddress(account.address) : account.address);

const at = (value: unknown, segments: readonly string[]): unknown =>
  segments.reduce<unknown>((v, s) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[s] : undefined), value);

/** The `start` that asks for what follows a cursor: a u64 as decimal, bytes as their hex, text as it is. */
const startOf = (cursor: unknown): string =>
  Array.isArray(cursor) ? cursor.map((b: number) => b.toString(16).padStart(2, '0')).join('') : String(cursor);

/** Walks a listing from its beginning, reading items and cursors only through the rule's pointers. */
async function walk(id: PagedOperationId, path: string, count: number, shapes: Shapes): Promise<{ items: unknown[]; pages: number }> {
  const rule: PagingRule = paging[id];
  const items: unknown[] = [];
  // Newest first without `start`: an ascending walk from the beginning starts at 0.
  let start: string | undefined = rule.newestFirstWithoutStart ? '0' : undefined;
  for (let pages = 1; pages <= 100; pages++) {
    // The page size's parameter: `count`, unless the rule names another (v3 events: `limit`).
    const size = (rule as { size?: string }).size ?? 'count';
    const query = `?${size}=${count}${start === undefined ? '' : `&${rule.start ?? 'start'}=${start}`}${rule.order ? `&${rule.order}=true` : ''}`;
    const res = await stub(`${stub.url}${path}${query}`, { headers: { 'x-stub-shapes': shapes } });
    expect(res.status, `${id} ${query}`).toBe(200);
    const body: unknown = await res.json();
    const page = at(body, rule.items);
    if (!Array.isArray(page)) throw new Error(`${id} ${query}: no items at /${rule.items.join('/')}`);
    items.push(...page);
    if (page.length === 0 || (rule.next.from === 'last-item' && page.length < count)) return { items, pages };
    const cursor =
      rule.next.from === 'last-item'
        ? BigInt(String(at(page.at(-1), rule.next.pointer))) + BigInt(rule.next.add)
        : rule.next.from === 'header'
          ? (res.headers.get(rule.next.name) ?? null)
          : at(body, rule.next.pointer);
    const next = cursor === null ? '' : startOf(cursor);
    if (next === '' || next === start) return { items, pages };
    start = next;
  }
  throw new Error(`${id}: no end after 100 pages`);
}

describe('the node stub pages as the paging table says', () => {
  const cases = (Object.keys(paging) as PagedOperationId[]).flatMap((id) => (['documented', 'live'] as const).map((shapes) => [id, shapes] as const));

  it.each(cases)('%s (%s): a walk by the table visits every item once', async (id, shapes) => {
    const route = routes.find((r) => r.operationId === id);
    if (route === undefined) throw new Error(`${id}: not in the generated routes`);
    const listing = route.path.split('/').at(-1) as keyof typeof counted;
    expect(Object.keys(counted), `${id}: which fact counts its items`).toContain(listing);
    const path = route.path.replace('{address}', addressFor(listing)).replace(/\{\w+\}/g, (p) => encodeURIComponent(PATH_VALUES[p] ?? p));
    const fact = counted[listing];
    const total = fact === 'none' ? 0 : account[fact];
    const { items, pages } = await walk(id, path, 15, shapes);
    // More than a page of items takes more than a page; none ends on the first.
    if (total > 15) expect(pages).toBeGreaterThan(1);
    else expect(pages).toBe(1);
    expect(items).toHaveLength(total);
    expect(new Set(items.map((item) => JSON.stringify(item))).size).toBe(total);
  });
});
