/**
 * The paging extension: every listing operation of the spec states its paging, and `pnpm gen` refuses a
 * contract that is missing, points at nothing, or promises what the schema cannot give, naming the
 * operation and the key.
 */
import { describe, expect, it } from 'vitest';
import { pagingTable } from '../src/paging.ts';
import { loadSpecs, type Spec } from '../src/specs.ts';

const { node } = loadSpecs();
const clone = (): Spec => structuredClone(node);
/** The spec with one edit made to listTransactionsV2's operation object. */
function edited(edit: (op: Record<string, unknown>) => void, id = 'listTransactionsV2'): Spec {
  const spec = clone();
  for (const item of Object.values(spec.doc.paths)) for (const op of Object.values(item)) if (op.operationId === id) edit(op as unknown as Record<string, unknown>);
  return spec;
}
const paging = (op: Record<string, unknown>): Record<string, unknown> => op['x-pagination'] as Record<string, unknown>;

describe('the paging table', () => {
  it('has a rule for every operation with a `start` query parameter or an x-pagination, and for no other', () => {
    const table = pagingTable(node);
    const listings = Object.values(node.doc.paths)
      .flatMap((item) => Object.values(item))
      .filter((op) => JSON.stringify(op.parameters ?? []).includes('start') || 'x-pagination' in op)
      .map((op) => op.operationId);
    expect(Object.keys(table).sort()).toEqual(listings.sort());
    // One listing pages by a parameter of another name: v3 automated transactions by `cursor`.
    expect(Object.entries(table).filter(([, rule]) => rule.start !== undefined)).toEqual([['listAutomatedTransactionsV3', expect.objectContaining({ start: 'cursor' })]]);
  });

  it('reads a header cursor and an order parameter (v3)', () => {
    const table = pagingTable(node);
    expect(table.listModulesV3).toMatchObject({ items: [], next: { from: 'header', name: 'x-supra-cursor', encoding: 'string' } });
    expect(table.listCoinTransactionsV3).toMatchObject({ next: { from: 'header', encoding: 'u64' }, order: 'ascending' });
    expect(table.listTransactionsV3).toMatchObject({ items: [], next: { from: 'last-item' }, predictable: true, order: 'ascending' });
  });

  it('says transactions are predictable and newest first without start; cursors are not', () => {
    const table = pagingTable(node);
    expect(table.listTransactionsV2).toMatchObject({ items: ['record'], next: { from: 'last-item', pointer: ['header', 'sequence_number'], add: 1 }, predictable: true });
    expect(table.listCoinTransactionsV1).toMatchObject({ next: { from: 'response', pointer: ['cursor'], encoding: 'u64' }, predictable: false });
    expect(table.listModulesV1).toMatchObject({ items: ['Modules', 'modules'], next: { pointer: ['Modules', 'cursor'], encoding: 'u8-bytes-or-hex' } });
  });
});

describe('pnpm gen refuses a paging contract that cannot hold', () => {
  const cases: [string, (op: Record<string, unknown>) => void, string, string?][] = [
    ['a listing without the extension', (op) => delete op['x-pagination'], 'listTransactionsV2: x-pagination: missing'],
    ['a listing without it, on a cursor listing', (op) => delete op['x-pagination'], 'listModulesV2: x-pagination: missing', 'listModulesV2'],
    ['an unknown key', (op) => (paging(op).pages = 3), "unknown key 'pages'"],
    ['items that are not an array', (op) => (paging(op).items = '/record/0'), 'x-pagination.items: /record/0 is not an array'],
    ['items that point at nothing', (op) => (paging(op).items = '/records'), 'x-pagination.items: /records is not an array'],
    ['an item field that does not exist', (op) => (paging(op).next = { from: 'last-item', pointer: '/header/seq', encoding: 'u64', add: 1 }), 'x-pagination.next.pointer: /header/seq is not an integer'],
    ['an encoding that does not fit start', (op) => (paging(op).next = { from: 'response', pointer: '/cursor', encoding: 'string' }), "x-pagination.next.encoding: string does not fit the `start` parameter's type", 'listModulesV2x'],
    ['an unknown end', (op) => (paging(op).ends = ['short-page', 'tired']), 'x-pagination.ends: must list some of'],
    ['no guard against a repeated cursor', (op) => (paging(op).ends = ['short-page']), 'must include repeated-cursor'],
    ['predictable starts that follow a cursor', (op) => (paging(op).predictable = true), 'x-pagination.predictable: page starts are predictable only', 'listCoinTransactionsV2'],
    ['a zero-cursor end on a string cursor', (op) => (paging(op).ends = ['zero-cursor', 'repeated-cursor']), "x-pagination.ends: 'zero-cursor' cannot happen", 'listModulesV2'],
    ['a header cursor the 200 response does not declare', (op) => (paging(op).next = { from: 'header', name: 'x-next', encoding: 'string' }), 'x-pagination.next.name: "x-next" is not a header of the 200 response', 'listModulesV3'],
    ['a header cursor with a pointer', (op) => (paging(op).next = { from: 'header', name: 'x-supra-cursor', pointer: '/cursor', encoding: 'string' }), 'x-pagination.next: a header cursor has a name, no pointer or add', 'listModulesV3'],
    ['an order parameter that is not a boolean', (op) => (paging(op).order = 'type'), 'x-pagination.order: must name a boolean query parameter', 'listCoinTransactionsV3'],
    ['a start parameter the operation lacks', (op) => (paging(op).start = 'from'), 'has no `from` query parameter to page with', 'listAutomatedTransactionsV3'],
  ];
  it.each(cases)('%s', (_label, edit, message, id = 'listTransactionsV2') => {
    const spec = id.endsWith('x') ? edited((op) => ((paging(op).next as Record<string, unknown>).encoding = 'u64'), 'listModulesV2') : edited(edit, id);
    const expected = id.endsWith('x') ? 'x-pagination.next.encoding: u64 does not fit' : message;
    expect(() => pagingTable(spec)).toThrow(expected);
    expect(() => pagingTable(spec)).toThrow(id.endsWith('x') ? 'listModulesV2' : id);
  });
});
