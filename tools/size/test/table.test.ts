/**
 * The size table of docs/size-budgets.md: written from size-limit's results, and stale only when it
 * stops being true of them (another check or limit, a size more than 3% off), so an operation added to a
 * spec, which grows the whole-client checks by a fraction of that, needs no edit of the docs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatBytes, parseBytes, sizeTable, staleRows, TABLE_END, TABLE_START, withTable, type SizeResult } from '../src/table.ts';

const results: SizeResult[] = [
  { name: "import { createNodeClient } from '@x/node-client'", size: 20_041, sizeLimit: 20_650, passed: true },
  { name: '@x/price-client/query (entry)', size: 345 },
  { name: 'install size of @x/validators', size: 1_310_512, sizeLimit: 1_500_000, passed: true },
];
const doc = `# Sizes\n\nbefore\n\n${TABLE_START}\nold\n${TABLE_END}\n\nafter\n`;

describe('the size table', () => {
  it('states each check, its limit and its size, between the markers, and nothing else of the doc changes', () => {
    const written = withTable(doc, results);
    expect(written).toBe(`# Sizes\n\nbefore\n\n${sizeTable(results)}\n\nafter\n`);
    expect(sizeTable(results).split('\n').slice(3, -1)).toEqual([
      "| `import { createNodeClient } from '@x/node-client'` | 20.65 kB | 20.04 kB |",
      '| `@x/price-client/query (entry)` |  | 345 B |',
      '| `install size of @x/validators` | 1.50 MB | 1.31 MB |',
    ]);
    expect(staleRows(written, results)).toEqual([]);
  });

  it('stays true within 3% of the measured sizes and configured limits (an added operation), and is stale beyond', () => {
    const written = withTable(doc, results);
    const grown = results.map((r, i) => (i === 0 ? { ...r, size: Math.round(r.size * 1.02) } : r));
    expect(staleRows(written, grown)).toEqual([]);
    const far = results.map((r, i) => (i === 0 ? { ...r, size: Math.round(r.size * 1.2) } : r));
    expect(staleRows(written, far)).toEqual(["`import { createNodeClient } from '@x/node-client'`: 20.04 kB in the table, 24.05 kB measured"]);
  });

  it('is stale when a limit, a check or the markers differ', () => {
    const written = withTable(doc, results);
    // A limit an added operation raised by 150 B is still the one stated; a limit set anew is not.
    expect(staleRows(written, results.map((r, i) => (i === 0 ? { ...r, sizeLimit: 20_800 } : r)))).toEqual([]);
    expect(staleRows(written, results.map((r, i) => (i === 0 ? { ...r, sizeLimit: 25_000 } : r)))).toEqual(["`import { createNodeClient } from '@x/node-client'`: limit 20.65 kB, configured 25.00 kB"]);
    expect(staleRows(written, results.map((r, i) => (i === 1 ? { ...r, sizeLimit: 1_000 } : r)))).toEqual(['`@x/price-client/query (entry)`: limit (none), configured 1.00 kB']);
    expect(staleRows(written, [...results, { name: 'new', size: 1 }])[0]).toBe('3 rows for 4 checks');
    expect(staleRows('# no table', results)).toEqual(['no size table between the markers']);
    expect(() => withTable('# no table', results)).toThrow(/no size table/);
  });

  it('reads back the sizes it writes', () => {
    for (const n of [-1, 0, 999, 1_000, 20_041, 1_310_512]) expect(Math.abs(parseBytes(formatBytes(n))! - n)).toBeLessThanOrEqual(n >= 1_000_000 ? 5_000 : 5);
    expect(parseBytes('about 7 kB')).toBeUndefined();
  });

  it('is where docs/size-budgets.md keeps it', () => {
    const committed = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'size-budgets.md'), 'utf8');
    expect(committed.indexOf(TABLE_START)).toBeGreaterThan(0);
    expect(committed.indexOf(TABLE_END)).toBeGreaterThan(committed.indexOf(TABLE_START));
  });
});
