import { describe, expect, it } from 'vitest';
import { PUBLISHER_MODULES, STUB_ACCOUNTS, STUB_ACCOUNT_FACTS, moduleKeyHex, resourceKeyHex } from '../src/index.ts';
import { useNodeStub } from '@x-tools/test-helpers';
import { get, hexOf, SEED } from './helpers.ts';

const ctx = useNodeStub(SEED);
const base = (v: string, address: string): string => `${ctx.stub.url}/rpc/${v}/accounts/${address}`;
const PUB = STUB_ACCOUNTS.publisher;

type ModuleId = { address: string; name: string };
type StructTag = { address: string; module: string; name: string; type_args: unknown[] };
interface V1Modules {
  Modules: { modules: Array<[string, ModuleId]>; cursor: number[] | null };
}
interface V1Resources {
  Resources: { resource: Array<[string, StructTag]>; cursor: number[] | null };
}
interface V2Modules {
  modules: Array<{ bytecode: string; abi: { address: string; name: { identifier: string } } }>;
  cursor: string | null;
}
interface V2Resources {
  resources: Array<{ type: string; data: Record<string, unknown> }>;
  cursor: string;
}

/** Walks a listing to the end the way a client would; returns the names and every page. */
async function walkV1Modules(address: string, count: number) {
  const names: string[] = [];
  const cursors: Array<number[] | null> = [];
  let start: string | undefined;
  for (let i = 0; i < 100; i++) {
    const r = await get<V1Modules>(`${base('v1', address)}/modules?count=${count}${start === undefined ? '' : `&start=${start}`}`);
    expect(r.status).toBe(200);
    names.push(...r.body.Modules.modules.map(([n]) => n));
    cursors.push(r.body.Modules.cursor);
    if (r.body.Modules.cursor === null) break;
    start = hexOf(r.body.Modules.cursor);
  }
  return { names, cursors };
}
async function walkV2Modules(address: string, count: number) {
  const names: string[] = [];
  const cursors: Array<string | null> = [];
  let start: string | undefined;
  for (let i = 0; i < 100; i++) {
    const r = await get<V2Modules>(`${base('v2', address)}/modules?count=${count}${start === undefined ? '' : `&start=${start}`}`);
    expect(r.status).toBe(200);
    names.push(...r.body.modules.map((m) => m.abi.name.identifier));
    cursors.push(r.body.cursor);
    if (r.body.cursor === null) break;
    start = r.body.cursor;
  }
  return { names, cursors };
}
async function walkV1Resources(address: string, count: number) {
  const types: string[] = [];
  const cursors: Array<number[] | null> = [];
  let start: string | undefined;
  for (let i = 0; i < 100; i++) {
    const r = await get<V1Resources>(`${base('v1', address)}/resources?count=${count}${start === undefined ? '' : `&start=${start}`}`);
    types.push(...r.body.Resources.resource.map(([t]) => t));
    cursors.push(r.body.Resources.cursor);
    if (r.body.Resources.cursor === null) break;
    start = hexOf(r.body.Resources.cursor);
  }
  return { types, cursors };
}
async function walkV2Resources(address: string, count: number) {
  const types: string[] = [];
  const pages: V2Resources[] = [];
  let start: string | undefined;
  for (let i = 0; i < 100; i++) {
    const r = await get<V2Resources>(`${base('v2', address)}/resources?count=${count}${start === undefined ? '' : `&start=${start}`}`);
    pages.push(r.body);
    if (r.body.resources.length === 0) break;
    types.push(...r.body.resources.map((x) => x.type));
    start = r.body.cursor;
  }
  return { types, pages };
}

describe('module listings', () => {
  const sorted = [...PUBLISHER_MODULES].sort();

  it.each([1, 7, 20, 44, 45, 100])('v1 with count=%i walks all 45 publisher modules in name order, cursor null at the end', async (count) => {
    const { names, cursors } = await walkV1Modules(PUB, count);
    expect(names).toEqual(sorted);
    expect(cursors.at(-1)).toBeNull();
    expect(cursors).toHaveLength(Math.ceil(45 / count));
    for (const c of cursors.slice(0, -1)) {
      expect(Array.isArray(c)).toBe(true);
      expect(c?.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)).toBe(true);
    }
  });

  it.each([1, 7, 20, 45, 100])('v2 with count=%i walks the same modules, cursor null at the end', async (count) => {
    const { names, cursors } = await walkV2Modules(PUB, count);
    expect(names).toEqual(sorted);
    expect(cursors.at(-1)).toBeNull();
    for (const c of cursors.slice(0, -1)) expect(c).toMatch(/^[0-9a-f]+$/);
  });

  it('a v1 cursor is the bytes of the last module key; v2 gives the same key as hex; they are interchangeable', async () => {
    const v1 = await get<V1Modules>(`${base('v1', PUB)}/modules?count=3`);
    const v2 = await get<V2Modules>(`${base('v2', PUB)}/modules?count=3`);
    const lastName = v1.body.Modules.modules[2]?.[0] as string;
    expect(hexOf(v1.body.Modules.cursor as number[])).toBe(moduleKeyHex(PUB, lastName));
    expect(v2.body.cursor).toBe(moduleKeyHex(PUB, lastName));
    const nextV1 = await get<V1Modules>(`${base('v1', PUB)}/modules?count=2&start=${v2.body.cursor}`);
    expect(nextV1.body.Modules.modules.map(([n]) => n)).toEqual(sorted.slice(3, 5));
    // Upper case and a 0x prefix are accepted too.
    const upper = await get<V1Modules>(`${base('v1', PUB)}/modules?count=2&start=0x${(v2.body.cursor as string).toUpperCase()}`);
    expect(upper.text).toBe(nextV1.text);
  });

  it('the default count is 20 and there is no maximum for modules', async () => {
    expect((await get<V1Modules>(`${base('v1', PUB)}/modules`)).body.Modules.modules).toHaveLength(20);
    expect((await get<V2Modules>(`${base('v2', PUB)}/modules?count=1000`)).body.modules).toHaveLength(45);
  });

  it('v1 module entries are [name, {address, name}]; v2 entries carry bytecode and ABI', async () => {
    const v1 = await get<V1Modules>(`${base('v1', '0x1')}/modules?count=100`);
    expect(v1.body.Modules.modules).toHaveLength(STUB_ACCOUNT_FACTS.framework.modules);
    expect(v1.body.Modules.modules[0]).toEqual(['account', { address: '0x1', name: 'account' }]);
    const v2 = await get<V2Modules>(`${base('v2', '0x1')}/modules?count=100`);
    for (const m of v2.body.modules) {
      expect(m.bytecode).toMatch(/^0xa11ceb0b[0-9a-f]+$/);
      expect(m.abi.address).toBe('0x1');
    }
  });

  it('count=0 answers no modules and a cursor that resumes where it was', async () => {
    const first = await get<V1Modules>(`${base('v1', PUB)}/modules?count=0`);
    expect(first.body).toEqual({ Modules: { modules: [], cursor: [] } });
    const again = await get<V1Modules>(`${base('v1', PUB)}/modules?count=1&start=`);
    expect(again.body.Modules.modules[0]?.[0]).toBe(sorted[0]);
    const mid = await get<V2Modules>(`${base('v2', PUB)}/modules?count=0&start=${moduleKeyHex(PUB, 'counter')}`);
    expect(mid.body).toEqual({ modules: [], cursor: moduleKeyHex(PUB, 'counter') });
  });

  it('an account without modules answers an empty page with cursor null', async () => {
    expect((await get(`${base('v1', STUB_ACCOUNTS.busy)}/modules`)).text).toBe('{"Modules":{"modules":[],"cursor":null}}');
    expect((await get(`${base('v2', STUB_ACCOUNTS.empty)}/modules`)).text).toBe('{"modules":[],"cursor":null}');
  });
});

describe('single modules', () => {
  it.each(['coin', 'account', 'supra_account'])('v1 %s is a MoveModule; v2 the same ABI with bytecode', async (name) => {
    const v1 = await get<{ address: string; name: { identifier: string }; friends: object; exposed_functions: object; structs: object }>(
      `${base('v1', '0x1')}/modules/${name}`,
    );
    expect(v1.status).toBe(200);
    expect(v1.body.name).toEqual({ identifier: name });
    expect(Object.keys(v1.body).sort()).toEqual(['address', 'exposed_functions', 'friends', 'name', 'structs']);
    const v2 = await get<{ bytecode: string; abi: unknown }>(`${base('v2', '0x1')}/modules/${name}`);
    expect(v2.body.abi).toEqual(v1.body);
  });

  it('an unknown module is null in v1 and a 404 in v2', async () => {
    const v1 = await get(`${base('v1', '0x1')}/modules/no_such_module`);
    expect([v1.status, v1.text]).toEqual([200, 'null']);
    const v2 = await get<{ error: string }>(`${base('v2', '0x1')}/modules/no_such_module`);
    expect([v2.status, v2.body.error]).toEqual([404, 'module_not_found']);
  });

  it.each(['9lives', 'has-dash', 'sp%20ace'])('a module name that is not an identifier (%s) is a 400', async (name) => {
    for (const v of ['v1', 'v2']) {
      const r = await get<{ error: string }>(`${base(v, '0x1')}/modules/${name}`);
      expect([r.status, r.body.error]).toEqual([400, 'invalid_module_name']);
    }
  });
});

describe('resource listings', () => {
  it.each([1, 5, 20, 29, 100])('v1 with count=%i walks all 29 publisher resources, cursor null at the end', async (count) => {
    const { types, cursors } = await walkV1Resources(PUB, count);
    expect(types).toHaveLength(STUB_ACCOUNT_FACTS.publisher.resources);
    expect([...types].sort()).toEqual(types);
    expect(new Set(types).size).toBe(types.length);
    expect(cursors.at(-1)).toBeNull();
  });

  it.each([1, 5, 20, 29, 100])('v2 with count=%i: the cursor is the last resource key; the page after the last is empty', async (count) => {
    const { types, pages } = await walkV2Resources(PUB, count);
    expect(types).toEqual((await walkV1Resources(PUB, 100)).types);
    for (const p of pages.slice(0, -1)) {
      expect(p.cursor).toBe(resourceKeyHex(PUB, p.resources.at(-1)?.type as string));
    }
    const last = pages.at(-1) as V2Resources;
    expect(last.resources).toEqual([]);
    // The empty page echoes the start it was given, so asking again stays at the end.
    expect(last.cursor).toBe(pages.at(-2)?.cursor);
  });

  it('v2 resources of an account with none: empty page, cursor ""', async () => {
    expect((await get(`${base('v2', STUB_ACCOUNTS.empty)}/resources`)).text).toBe('{"resources":[],"cursor":""}');
    expect((await get(`${base('v1', STUB_ACCOUNTS.empty)}/resources`)).text).toBe('{"Resources":{"resource":[],"cursor":null}}');
  });

  it('v1 entries are [type string, StructTag] with nested type tags', async () => {
    const r = await get<V1Resources>(`${base('v1', PUB)}/resources?count=100`);
    const vault = r.body.Resources.resource.find(([t]) => t.includes('::vault::Vault'));
    expect(vault).toEqual([
      `${PUB}::vault::Vault<vector<vector<0x1::coin::Coin<0x1::supra_coin::SupraCoin>>>>`,
      {
        address: PUB,
        module: 'vault',
        name: 'Vault',
        type_args: [
          {
            vector: {
              vector: {
                struct: {
                  address: '0x1',
                  module: 'coin',
                  name: 'Coin',
                  type_args: [{ struct: { address: '0x1', module: 'supra_coin', name: 'SupraCoin', type_args: [] } }],
                },
              },
            },
          },
        ],
      },
    ]);
  });

  it.each([
    ['not hex', 'zz'],
    ['odd length', 'abc'],
    ['repeated', 'ab&start=cd'],
  ])('a malformed start (%s) is a 400', async (_label, start) => {
    for (const v of ['v1', 'v2']) {
      for (const op of ['modules', 'resources']) {
        const r = await get<{ error: string }>(`${base(v, PUB)}/${op}?start=${start}`);
        expect([r.status, r.body.error]).toEqual([400, 'invalid_start']);
      }
    }
  });

  it.each([['-1'], ['x'], ['1.5']])('a malformed count (%s) is a 400', async (count) => {
    const r = await get<{ error: string }>(`${base('v2', PUB)}/resources?count=${count}`);
    expect([r.status, r.body.error]).toEqual([400, 'invalid_count']);
  });
});

describe('single resources', () => {
  const ALL_KINDS = `${PUB}::showcase::AllKinds`;

  it('v1 AllKinds: one MoveValue (or null) per top-level field, every kind present', async () => {
    const r = await get<{ result: Array<Record<string, unknown> | null> }>(`${base('v1', PUB)}/resources/${ALL_KINDS}`);
    expect(r.status).toBe(200);
    const kinds = new Set(r.body.result.map((v) => (v === null ? 'null' : Object.keys(v)[0])));
    for (const k of ['U8', 'U16', 'U32', 'U64', 'U128', 'U256', 'Bool', 'Address', 'Vector', 'Bytes', 'Struct', 'String', 'null']) {
      expect(kinds.has(k), k).toBe(true);
    }
    expect(r.body.result[3]).toEqual({ U64: '18446744073709551615' });
    expect(r.body.result.find((v) => v !== null && 'Bytes' in v)).toMatchObject({ Bytes: expect.stringMatching(/^0x00([0-9a-f]{2})+00$/) });
    for (const v of r.body.result) if (v !== null && 'Vector' in v) expect((v.Vector as unknown[]).every((s) => typeof s === 'string')).toBe(true);
  });

  it('v2 AllKinds follows the JSON mapping', async () => {
    const r = await get<{ type: string; data: Record<string, unknown> }>(`${base('v2', PUB)}/resources/${ALL_KINDS}`);
    expect(r.body.type).toBe(ALL_KINDS);
    const d = r.body.data;
    expect(typeof d.small).toBe('number');
    expect(typeof d.port).toBe('number');
    expect(d.flags).toBe(4294967295);
    expect(d.balance).toBe('18446744073709551615');
    expect(d.big).toBe('340282366920938463463374607431768211455');
    expect(d.huge).toMatch(/^[0-9]+$/);
    expect(typeof d.active).toBe('boolean');
    expect(d.owner).toBe(STUB_ACCOUNTS.alice);
    expect(d.raw).toMatch(/^0x([0-9a-f]{2})+$/);
    expect(d.tags).toEqual(['alpha', 'beta', 'γάμμα']);
    expect(Array.isArray(d.matrix) && (d.matrix as unknown[]).every(Array.isArray)).toBe(true);
    expect(d.point).toMatchObject({ x: expect.any(String), y: expect.any(String), z: expect.any(Number) });
    expect(d.maybe_owner).toEqual({ vec: [] });
    expect(d.maybe_limit).toEqual({ vec: [expect.stringMatching(/^[0-9]+$/)] });
  });

  it('the CoinStore balance and counters agree with the coin transactions', async () => {
    const store = await get<{ data: { coin: { value: string }; deposit_events: { counter: string }; withdraw_events: { counter: string } } }>(
      `${base('v2', STUB_ACCOUNTS.exactly100)}/resources/0x1::coin::CoinStore<0x1::supra_coin::SupraCoin>`,
    );
    expect(store.body.data.withdraw_events.counter).toBe('100');
    expect(store.body.data.deposit_events.counter).toBe('0');
    expect(BigInt(store.body.data.coin.value)).toBeLessThan(1_000_000_000_000_000n);
  });

  it.each([
    ['plain', '0x1::coin::CoinStore<0x1::supra_coin::SupraCoin>'],
    ['percent-encoded', encodeURIComponent('0x1::coin::CoinStore<0x1::supra_coin::SupraCoin>')],
    ['zero-padded addresses', `0x${'0'.repeat(63)}1::coin::CoinStore<0x0001::supra_coin::SupraCoin>`],
  ])('a resource type is matched %s', async (_label, type) => {
    const r = await get<{ type: string }>(`${base('v2', STUB_ACCOUNTS.bob)}/resources/${type}`);
    expect(r.status).toBe(200);
    expect(r.body.type).toBe('0x1::coin::CoinStore<0x1::supra_coin::SupraCoin>');
  });

  it('every listed resource can be fetched by its type, in both versions', async () => {
    const { types } = await walkV1Resources(PUB, 100);
    for (const t of types) {
      const v1 = await get<{ result: unknown[] }>(`${base('v1', PUB)}/resources/${encodeURIComponent(t)}`);
      const v2 = await get<{ type: string }>(`${base('v2', PUB)}/resources/${encodeURIComponent(t)}`);
      expect(Array.isArray(v1.body.result), t).toBe(true);
      expect(v2.body.type).toBe(t);
    }
  });

  it('an unknown resource is null in v1 and a 404 in v2', async () => {
    const v1 = await get(`${base('v1', '0x1')}/resources/0x1::nothing::Here`);
    expect([v1.status, v1.text]).toEqual([200, 'null']);
    const v2 = await get<{ error: string }>(`${base('v2', '0x1')}/resources/0x1::nothing::Here`);
    expect([v2.status, v2.body.error]).toEqual([404, 'resource_not_found']);
  });

  it.each([
    ['no 0x prefix', '1::coin::CoinInfo'],
    ['a comma (outside the documented pattern)', '0x1::coin::CoinInfo<u8,u8>'],
    ['not a struct', '0xu8'],
    ['unbalanced', '0x1::coin::CoinInfo<0x1::supra_coin::SupraCoin'],
    ['missing name', '0x1::coin'],
  ])('a malformed resource type (%s) is a 400', async (_label, type) => {
    for (const v of ['v1', 'v2']) {
      const r = await get<{ error: string }>(`${base(v, '0x1')}/resources/${encodeURIComponent(type)}`);
      expect([r.status, r.body.error]).toEqual([400, 'invalid_resource_type']);
    }
  });
});
