/** `x-validate record` builds its URLs from the generated routes (path templates filled in, query after). */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { record } from '../src/cli/record.js';

describe('x-validate record URLs', () => {
  it('requests each operation at its generated route, and redacts the API key', async () => {
    const urls: string[] = [];
    const fake = (async (input: string | URL | Request) => {
      const url = String(input);
      urls.push(url);
      const body = url.includes('/rpc/v2/accounts/0x1/modules?') ? { modules: [{ abi: { name: 'm 1' } }], cursor: '' } : {};
      return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    const outDir = mkdtempSync(join(tmpdir(), 'x-validate-record-'));
    const { file } = await record({
      baseUrl: 'http://node/',
      address: '0x1',
      outDir,
      count: 2,
      price: { baseUrl: 'http://price', pair: 'btc_usdt', apiKey: 'secret-key' },
      progress: () => {},
      fetch: fake,
    });
    expect(urls).toContain('http://node/rpc/v1/accounts/0x1');
    expect(urls).toContain('http://node/rpc/v2/accounts/0x1/transactions?count=2&start=0');
    expect(urls).toContain('http://node/rpc/v1/accounts/0x1/coin_transactions?count=2');
    expect(urls).toContain('http://node/rpc/v2/accounts/0x1/modules/m%201');
    expect(urls.some((u) => u.startsWith('http://price/') && u.includes('trading_pair=btc_usdt'))).toBe(true);
    expect(urls.every((u) => !u.includes('undefined') && !u.includes('{'))).toBe(true);
    const har = readFileSync(file, 'utf8');
    expect(har).not.toContain('secret-key');
  });
});
