/**
 * The README's TanStack Query examples: the React one is type-checked in readme-query.test-d.ts and
 * shown here verbatim (the region between its markers); the query-core one runs against the node stub,
 * its snippet shown in the README verbatim.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/query-core';
import { createNodeClient, http } from '@x/node-client';
import { moduleName } from '@x/node-client/shapes';
import { createNodeQueries, getAccountV3QueryOptions, listModulesV3InfiniteQueryOptions } from '@x/node-client/query';
import { useNodeStub } from '@x-tools/test-helpers';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const ctx = useNodeStub();

describe('README: TanStack Query', () => {
  it('the React example is the type-checked one', () => {
    const source = readFileSync(new URL('./readme-query.test-d.ts', import.meta.url), 'utf8');
    const region = /\/\/ #region readme-react\n([\s\S]*?)\/\/ #endregion readme-react/.exec(source)?.[1];
    expect(region).toBeDefined();
    expect(readme).toContain('```ts\n' + region + '```');
  });

  it('query-core alone runs the options', async () => {
    const node = createNodeClient({ baseUrl: ctx.stub.url });
    expect(readme).toContain(`const queryClient = new QueryClient();
const queries = createNodeQueries(node);
const account = await queryClient.fetchQuery(queries.v3.getAccount('0x1'));
const modules = await queryClient.fetchInfiniteQuery({ ...queries.v3.modules('0x1', { pageSize: 5 }), pages: 2 });
console.log(account.sequence_number, modules.pages.flatMap((page) => page.items.map((m) => moduleName(m.abi)))); // 10 names`);
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const queryClient = new QueryClient();
      const queries = createNodeQueries(node);
      const account = await queryClient.fetchQuery(queries.v3.getAccount('0x1'));
      const modules = await queryClient.fetchInfiniteQuery({ ...queries.v3.modules('0x1', { pageSize: 5 }), pages: 2 });
      console.log(account.sequence_number, modules.pages.flatMap((page) => page.items.map((m) => moduleName(m.abi)))); // 10 names
      const names = [];
      for await (const m of node.v3.modules('0x1', { limit: 10 })) names.push(moduleName(m.abi));
      expect(names.every((name) => typeof name === 'string')).toBe(true);
      expect(log).toHaveBeenCalledWith((await node.v3.getAccount('0x1')).sequence_number, names);
      expect(modules.pages.map((page) => page.items.length)).toEqual([5, 5]);
      expect(names).toHaveLength(10);
      queryClient.clear();
    } finally {
      log.mockRestore();
    }
  });

  it('one option per operation, over http(), runs as the README shows', async () => {
    const node = http({ baseUrl: ctx.stub.url });
    expect(readme).toContain(`const queryClient = new QueryClient();
const account = await queryClient.fetchQuery(getAccountV3QueryOptions(node, '0x1')); // AccountData
const modules = await queryClient.fetchInfiniteQuery({ ...listModulesV3InfiniteQueryOptions(node, '0x1', { pageSize: 5 }), pages: 2 });
console.log(account.sequence_number, modules.pages.flatMap((page) => page.items).length); // 10`);
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const queryClient = new QueryClient();
      const account = await queryClient.fetchQuery(getAccountV3QueryOptions(node, '0x1')); // AccountData
      const modules = await queryClient.fetchInfiniteQuery({ ...listModulesV3InfiniteQueryOptions(node, '0x1', { pageSize: 5 }), pages: 2 });
      console.log(account.sequence_number, modules.pages.flatMap((page) => page.items).length); // 10
      const client = createNodeClient({ baseUrl: ctx.stub.url });
      expect(log).toHaveBeenCalledWith((await client.v3.getAccount('0x1')).sequence_number, 10);
      queryClient.clear();
    } finally {
      log.mockRestore();
    }
  });
});
