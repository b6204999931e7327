/**
 * The demo: starts both stub servers on loopback, then uses only the packages' public APIs (as built
 * in dist/) to read an account, walk its transactions and coin transactions, list modules and
 * resources, validate every response, and read price history and the latest price.
 */
import { createNodeClient, isNotFound } from '@x/node-client';
import { createPriceClient, readInstrument } from '@x/price-client';
import { createResponseValidator, validateTransactionOutput } from '@x/validators';
import { startNodeStub, startPriceStub, STUB_ACCOUNTS, DEFAULT_PRICE_API_KEY, DEFAULT_PRICE_NOW } from '@x-tools/stub-servers';

const line = (label: string, value: unknown): void => console.log(`  ${label.padEnd(34)} ${String(value)}`);

async function main(): Promise<void> {
  const [nodeStub, priceStub] = await Promise.all([startNodeStub({ port: 0, seed: 1 }), startPriceStub({ port: 0, seed: 1 })]);
  try {
    console.log(`Stub servers: node ${nodeStub.url}, prices ${priceStub.url}\n`);
    let validated = 0;
    const strict = createResponseValidator({ strict: true });
    // Every response body is checked against the spec (strict profile) before the client returns it.
    const validator: typeof strict = (operationId, status, body) => {
      validated++;
      return strict(operationId, status, body);
    };
    const node = createNodeClient({ baseUrl: nodeStub.url, validator });

    console.log('Node RPC, v2');
    const busy = STUB_ACCOUNTS.busy;
    const account = await node.v2.getAccount(busy);
    line('account', `${busy.slice(0, 10)}…${busy.slice(-6)}`);
    line('sequence number', account.sequence_number);

    let txs = 0;
    let gas = 0;
    const outputs = new Map<string, number>();
    for await (const tx of node.v2.transactions(busy, { start: 0 })) {
      txs++;
      const output = tx.output ?? 'none';
      const kind = typeof output === 'string' ? output : Object.keys(output)[0]!;
      outputs.set(kind, (outputs.get(kind) ?? 0) + 1);
      if (typeof output === 'object' && 'Move' in output) gas += output.Move.gas_used;
      if (validateTransactionOutput(output === 'none' ? 'Empty' : output).ok !== true) throw new Error('invalid output');
    }
    line('transactions sent (all pages)', txs);
    line('outputs by kind', [...outputs].map(([k, n]) => `${k} ${n}`).join(', '));
    line('gas used in all', gas);

    const alice = STUB_ACCOUNTS.alice;
    let coin = 0;
    let sent = 0;
    for await (const tx of node.v2.coinTransactions(alice, { pageSize: 100 })) {
      coin++;
      if (tx.header.sender === alice) sent++;
    }
    line('coin transactions of alice', `${coin} (${sent} sent, ${coin - sent} received)`);

    const publisher = STUB_ACCOUNTS.publisher;
    const modules: string[] = [];
    for await (const m of node.v2.modules(publisher, { pageSize: 10 })) modules.push(JSON.stringify(m.abi.name));
    line('modules of publisher', `${modules.length}, first ${modules[0]}`);
    let resources = 0;
    let firstType = '';
    for await (const r of node.v2.resources(publisher, { pageSize: 10 })) {
      if (resources++ === 0) firstType = r.type;
    }
    line('resources of publisher', resources);
    const resource = await node.v2.getResource(publisher, firstType);
    line('first resource', `${resource.type} (${Object.keys(resource.data).length} fields)`);
    const missing = await node.v2.getAccount(STUB_ACCOUNTS.unknown).catch((err: unknown) => (isNotFound(err) ? 'HTTP 404' : Promise.reject(err)));
    line('unknown account (v2)', missing);

    console.log('\nNode RPC, v1 (deprecated)');
    line('unknown account (v1)', JSON.stringify(await node.v1.getAccount(STUB_ACCOUNTS.unknown)));
    let v1Modules = 0;
    for await (const _ of node.v1.modules(STUB_ACCOUNTS.framework, { pageSize: 5 })) v1Modules++;
    line('modules of 0x1 (v1 byte cursors)', v1Modules);
    line('responses validated (strict)', validated);

    console.log('\nPrice history');
    const prices = createPriceClient({ baseUrl: priceStub.url, apiKey: DEFAULT_PRICE_API_KEY, validator });
    const end = DEFAULT_PRICE_NOW;
    const day = await prices.history({ pair: 'btc_usdt', start: end - 86_400_000, end, resolution: 3600 });
    const closes = day.map((c) => c.close);
    line('btc_usdt, last 24 h hourly', `${day.length} candles, close ${Math.min(...closes).toFixed(2)}..${Math.max(...closes).toFixed(2)}`);
    let week = 0;
    let previous = -Infinity;
    for await (const c of prices.historyRange({ pair: 'eth_usdt', start: end - 7 * 86_400_000, end, resolution: 900, windowCandles: 96, concurrency: 3 })) {
      if (c.timestamp <= previous) throw new Error('candles out of order');
      previous = c.timestamp;
      week++;
    }
    line('eth_usdt, last 7 days, 15 min', `${week} candles in order, no duplicates`);
    const latest = await prices.latest({ pair: 'btc_usdt' });
    const btc = readInstrument(latest.instruments[0]!);
    line('latest btc_usdt', `${btc.currentPrice} at ${btc.time.toISOString()} (24h ${btc.change24h}%)`);
    console.log('\nDone: every response above matched the specs.');
  } finally {
    await Promise.all([nodeStub.close(), priceStub.close()]);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
