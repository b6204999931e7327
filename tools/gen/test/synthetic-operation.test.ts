/**
 * CONTRIBUTING's "Adding an operation", proved: an operation added to a copy of the node spec, and nothing
 * else, is generated (its entry in @x/common's operation table and route table, an action, the client's
 * method, its query options), typed (a strict `tsc` over the generated code and a caller's file) and
 * callable over HTTP through both the action and the client. It is an operation of a version after the
 * spec's newest, read from the spec, so the test holds when a real new version arrives.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse, stringify } from 'yaml';
import { generate } from '../src/generate.ts';
import { ROOT } from '../src/specs.ts';

const SPEC = parse(readFileSync(join(ROOT, 'specs', 'node-rpc.openapi.yaml'), 'utf8')) as { paths: Record<string, Record<string, { operationId: string }>> };
const IDS = Object.values(SPEC.paths).flatMap((item) => Object.values(item).flatMap((op) => (typeof op?.operationId === 'string' ? [op.operationId] : [])));
const versionOf = (id: string): number => Number(/V(\d+)$/.exec(id)?.[1] ?? 0);
/** The version after the spec's newest: no operation of the spec has it. */
const V = Math.max(...IDS.map(versionOf)) + 1;
/** The account read the new version carries from the newest version that has one. */
const CARRIED = IDS.filter((id) => id.startsWith('getAccountV')).sort((a, b) => versionOf(b) - versionOf(a))[0]!;
const ID = `getBalanceV${V}`;
const PATH = `/rpc/v${V}/accounts/{address}/balance`;

/** An operation of the new version alone, with a path parameter, a query parameter and a body of its own. */
const OPERATION = {
  operationId: ID,
  summary: 'The balance of one coin of the account',
  tags: ['accounts-v2'],
  parameters: [
    { $ref: '#/components/parameters/address' },
    { name: 'coin_type', in: 'query', required: false, schema: { type: 'string' } },
  ],
  responses: {
    '200': {
      description: 'The balance.',
      content: { 'application/json': { schema: { type: 'object', required: ['balance'], properties: { balance: { type: 'string' } } } } },
    },
    default: { $ref: '#/components/responses/Undocumented' },
  },
};

/** The packages whose sources the test copies and generates into. */
const COPIED = ['node-client', 'node-types', 'common'];

let dir: string;
let server: Server;
let baseUrl: string;
const seen: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'synthetic-operation-'));
  cpSync(join(ROOT, 'specs'), join(dir, 'specs'), { recursive: true });
  const file = join(dir, 'specs', 'node-rpc.openapi.yaml');
  const spec = parse(readFileSync(file, 'utf8')) as { paths: Record<string, unknown> };
  spec.paths[PATH] = { get: OPERATION };
  writeFileSync(file, stringify(spec));
  // The node client, its types and @x/common (the operation tables) as they are, with what `pnpm gen`
  // makes of the copy.
  for (const pkg of COPIED) cpSync(join(ROOT, `packages/${pkg}/src`), join(dir, `${pkg}/src`), { recursive: true });
  const files = await generate(dir);
  for (const [path, content] of files) {
    if (COPIED.some((pkg) => path.startsWith(`packages/${pkg}/src/`))) writeFileSync(join(dir, path.slice('packages/'.length)), content);
  }
  server = createServer((req, res) => {
    seen.push(req.url!);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ balance: '42' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);

afterAll(() => {
  server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('an operation added to the spec alone', () => {
  it(`is generated: an action, a v${V} method and its query options`, () => {
    const actions = readFileSync(join(dir, 'node-client/src/generated/actions.ts'), 'utf8');
    expect(actions).toContain(`export function ${ID}(client: Caller, address: string, options?: CallOptions & { coin_type?: string | undefined }): Promise<ResponseBody<'${ID}'>>`);
    // The new version's own operation first, then the current API it carries from older versions (the newest account read).
    expect(actions).toMatch(new RegExp(`export const v${V}Actions = \\{\\n {2}getBalance: ${ID},\\n`));
    expect(actions).toMatch(new RegExp(`export const v${V}Actions = \\{[^}]*\\n {2}getAccount: ${CARRIED},\\n`));
    expect(readFileSync(join(dir, 'node-client/src/generated/queries.ts'), 'utf8')).toContain(`getBalance(address: string, params?: { coin_type?: string | undefined }): NodeQueryOptions<ResponseBody<'${ID}'>, NodeQueryKey<'${ID}'>>;`);
    // Its entry, in the node's operation table of @x/common, which the action reads and the routes come from.
    const table = readFileSync(join(dir, 'common/src/generated/node-rpc.ts'), 'utf8');
    expect(table).toContain(`export const ${ID} = {\n  "method": "GET",\n  "path": "${PATH}",`);
    expect(table).toContain(`  readonly ${ID}: typeof ${ID};\n`);
    expect(actions).toContain(`client.call('${ID}', op.${ID}, { address, coin_type: options?.coin_type }, options)`);
  });

  it('is typed: strict tsc accepts a caller that reads the answer and refuses a wrong argument', () => {
    writeFileSync(
      join(dir, 'caller.ts'),
      `import { createNodeClient, ${ID}, http } from './node-client/src/index.js';
export async function read(baseUrl: string): Promise<string[]> {
  const answer = await ${ID}(http({ baseUrl }), '0x1', { coin_type: '0x1::supra_coin::SupraCoin' });
  const viaClient = await createNodeClient({ baseUrl }).v${V}.getBalance('0x1');
  // @ts-expect-error an address is a string
  void ${ID}(http({ baseUrl }), 1);
  // @ts-expect-error coin_type is a string
  void createNodeClient({ baseUrl }).v${V}.getBalance('0x1', { coin_type: 1 });
  return [answer.balance, viaClient.balance];
}
`,
    );
    const paths = {
      '@x/node-types': [join(dir, 'node-types/src/index.ts')],
      '@x/client-core': [join(ROOT, 'packages/client-core/src/index.ts')],
      '@x/client-core/internal': [join(ROOT, 'packages/client-core/src/internal.ts')],
      '@x/common': [join(dir, 'common/src/index.ts')],
    };
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', skipLibCheck: true, types: [], lib: ['es2023', 'dom', 'dom.iterable'], paths }, files: ['caller.ts'] }),
    );
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    // tsc's diagnostics, none when the generated code and the caller type-check.
    const run = spawnSync(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { encoding: 'utf8' });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  }, 120_000);

  it('is callable over HTTP, as an action and as the client’s method, and has its route', async () => {
    // The copy's @x/common (its generated tables), where the repository's would be imported.
    const common = pathToFileURL(join(dir, 'common/src/index.ts')).href;
    vi.doMock('@x/common', () => import(common));
    const { matchRoute } = (await import(common)) as { matchRoute(path: string): { route: { operationId: string } } | undefined };
    expect(matchRoute(`/rpc/v${V}/accounts/0x1/balance`)?.route.operationId).toBe(ID);
    const mod = (await import(pathToFileURL(join(dir, 'node-client/src/index.ts')).href)) as Record<string, unknown> & {
      http(o: { baseUrl: string }): unknown;
      createNodeClient(o: { baseUrl: string }): Record<string, { getBalance(address: string): Promise<{ balance: string }> }>;
    };
    const action = mod[ID] as (client: unknown, address: string, o?: { coin_type?: string }) => Promise<{ balance: string }>;
    await expect(action(mod.http({ baseUrl }), '0x1', { coin_type: '0x1::supra_coin::SupraCoin' })).resolves.toEqual({ balance: '42' });
    await expect(mod.createNodeClient({ baseUrl })[`v${V}`]!.getBalance('0x01')).resolves.toEqual({ balance: '42' });
    expect(seen).toEqual([`/rpc/v${V}/accounts/0x1/balance?coin_type=0x1%3A%3Asupra_coin%3A%3ASupraCoin`, `/rpc/v${V}/accounts/0x1/balance`]);
  });
});
