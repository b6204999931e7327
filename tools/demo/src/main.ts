/**
 * The demo: starts both stub servers on loopback, then uses only the packages' public APIs (as built
 * in dist/) to read an account through v3 (the node's current API), walk its transactions and coin
 * transactions, list modules and resources, read a transaction by hash, its block and a balance view,
 * show what v2 and v1 (deprecated) still answer, validate every response, read one transaction as the document gives it and as live
 * nodes send it (the same stub, `x-stub-shapes: live`) through `@x/node-client/shapes`, and read price
 * history and the latest price; then the node stub in memory (`@x/testing`'s fetch) with a fault on
 * demand and an account of the demo's own.
 */
import { createNodeClient, isNotFound, type Event } from '@x/node-client';
import { eventGuid, eventSequenceNumber, moduleFunctions, senderAddress, timestampDate, timestampMicros, transactionOutcome } from '@x/node-client/shapes';
import { createPriceClient, readInstrument } from '@x/price-client';
import { createResponseValidator, validateTransactionOutput } from '@x/validators';
import { createNodeStubFetch, startNodeStub, startPriceStub, STUB_ACCOUNTS, DEFAULT_PRICE_API_KEY, DEFAULT_PRICE_NOW } from '@x/testing';

const line = (label: string, value: unknown): void => console.log(`  ${label.padEnd(34)} ${String(value)}`);

async function main(): Promise<void> {
  // The price clock fixed at DEFAULT_PRICE_NOW, passed explicitly: the demo asks for the day before it and prints the same prices each run.
  const [nodeStub, priceStub] = await Promise.all([startNodeStub({ port: 0, seed: 1 }), startPriceStub({ port: 0, seed: 1, now: () => DEFAULT_PRICE_NOW })]);
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

    console.log('Node RPC, v3 (the current API)');
    const busy = STUB_ACCOUNTS.busy;
    const account = await node.v3.getAccount(busy);
    line('account', `${busy.slice(0, 10)}…${busy.slice(-6)}`);
    line('sequence number', account.sequence_number);

    let txs = 0;
    let gas = 0n;
    const outputs = new Map<string, number>();
    for await (const tx of node.v3.transactions(busy, { start: 0, concurrency: 4 })) {
      txs++;
      // Any kind of transaction and any form of output, read alike (no narrowing on txn_type or output).
      const outcome = transactionOutcome(tx);
      const kind = `${outcome.output ?? 'none'} ${outcome.status ?? '?'}`;
      outputs.set(kind, (outputs.get(kind) ?? 0) + 1);
      gas += outcome.gasUsed ?? 0n;
      if ('output' in tx && validateTransactionOutput(tx.output ?? 'Empty').ok !== true) throw new Error('invalid output');
    }
    line('transactions sent (all pages)', txs);
    line('outputs by form and status', [...outputs].map(([k, n]) => `${k} ${n}`).join(', '));
    line('gas used in all', gas);

    const alice = STUB_ACCOUNTS.alice;
    let coin = 0;
    let sent = 0;
    for await (const tx of node.v3.coinTransactions(alice, { pageSize: 100 })) {
      coin++;
      if ((tx.txn_type === 'user' || tx.txn_type === 'automated') && senderAddress(tx.header.sender) === alice) sent++;
    }
    line('coin transactions of alice', `${coin} (${sent} sent, ${coin - sent} received)`);
    const { result: [balance] } = await node.v3.view({ function: '0x1::coin::balance', type_arguments: ['0x1::supra_coin::SupraCoin'], arguments: [alice] });
    line('balance of alice (view)', balance);
    const [last] = await node.v3.listTransactions(alice, { count: 1 });
    if (last?.block_header) {
      const block = await node.v3.getBlockByHeight(last.block_header.height, { with_finalized_transactions: true });
      const again = await node.v3.getTransaction(last.hash);
      line('her last transaction, by hash', `${again.hash.slice(0, 10)}… ${transactionOutcome(again).status}, block ${block.header.height} (${block.transactions?.length ?? 0} transactions)`);
    }

    const publisher = STUB_ACCOUNTS.publisher;
    const modules: string[] = [];
    for await (const m of node.v3.modules(publisher, { pageSize: 10 })) modules.push(JSON.stringify(m.abi?.name));
    line('modules of publisher', `${modules.length}, first ${modules[0]}`);
    let resources = 0;
    let firstType = '';
    for await (const r of node.v3.resources(publisher, { pageSize: 10 })) {
      if (resources++ === 0) firstType = r.type;
    }
    line('resources of publisher', resources);
    const resource = await node.v3.getResource(publisher, firstType);
    line('first resource', `${resource.type} (${Object.keys(resource.data).length} fields)`);
    const missing = await node.v3.getAccount(STUB_ACCOUNTS.unknown).catch((err: unknown) => (isNotFound(err) ? 'HTTP 404' : Promise.reject(err)));
    line('unknown account (v3)', missing);
    line('latest block', (await node.v3.getLatestBlock()).header.height);

    console.log('\nNode RPC, v2 (deprecated): the same names, v2 shapes');
    line('sequence number (v2)', (await node.v2.getAccount(busy)).sequence_number);
    const { record } = await node.v2.listCoinTransactions(alice, { count: 5 });
    line('newest coin transactions (v2)', record.map((tx) => `${tx.hash.slice(0, 8)}…`).join(', '));

    console.log('\nNode RPC, v1 (deprecated)');
    line('unknown account (v1)', JSON.stringify(await node.v1.getAccount(STUB_ACCOUNTS.unknown)));
    let v1Modules = 0;
    for await (const _ of node.v1.modules(STUB_ACCOUNTS.framework, { pageSize: 5 })) v1Modules++;
    line('modules of 0x1 (v1 byte cursors)', v1Modules);
    line('responses validated (strict)', validated);

    // The same stub answers in the forms real nodes send when asked (x-stub-shapes: live). The client's
    // types are the union of both forms, and @x/node-client/shapes reads either; the injected validator
    // checks the live reading (createResponseValidator's default profile).
    console.log('\nOne transaction, documented and live shapes');
    const liveNode = createNodeClient({ baseUrl: nodeStub.url, validator, headers: { 'x-stub-shapes': 'live' } });
    const [asDocumented] = (await node.v1.listTransactions(alice, { count: 1, start: 0 }))?.record ?? [];
    const [asLive] = (await liveNode.v1.listTransactions(alice, { count: 1, start: 0 }))?.record ?? [];
    if (!asDocumented?.block_header || !asLive?.block_header) throw new Error('no transaction');
    const show = (label: string, tx: typeof asLive): void => {
      const events = typeof tx.output === 'object' && tx.output !== null && 'Move' in tx.output ? (tx.output.Move.events as Event[]) : [];
      line(`${label}: raw timestamp`, JSON.stringify(tx.block_header!.timestamp));
      line(`${label}: raw sender`, JSON.stringify(tx.header.sender).replace(/0x(\w{6})\w+(\w{6})/, '0x$1…$2'));
      line(`${label}: raw first event guid`, JSON.stringify(events[0]?.guid).replace(/0x(\w{6})\w+(\w{6})/, '0x$1…$2'));
      const guid = events[0] && eventGuid(events[0]);
      line(
        `${label}: through the helpers`,
        `${timestampDate(tx.block_header!.timestamp).toISOString()}, sender ${senderAddress(tx.header.sender).slice(0, 8)}…, ` +
          `event ${guid ? `${guid.accountAddress.slice(0, 8)}…:${guid.creationNumber}` : '?'} #${events[0] ? eventSequenceNumber(events[0]) : '?'}`,
      );
    };
    show('documented', asDocumented);
    show('live', asLive);
    if (timestampMicros(asDocumented.block_header.timestamp) !== timestampMicros(asLive.block_header.timestamp)) throw new Error('shapes disagree');
    const abi = await liveNode.v1.getModule('0x1', 'coin');
    line('live module ABI, view functions', abi ? moduleFunctions(abi).filter((f) => f.is_view).map((f) => f.name).join(', ') : '-');

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
    console.log('\n@x/testing in memory (no socket): a fault on demand and an account of your own');
    const memory = createNodeStubFetch({ accounts: { carol: { transactions: [{ to: 'alice', amount: 2_500 }, { function: '0x1::counter::increment' }] } } });
    const inMemory = createNodeClient({ baseUrl: memory.url, fetch: memory, validator, retry: { attempts: 2, baseDelayMs: 1 } });
    memory.failNext('getAccountV2', 502);
    const carol = await inMemory.v2.getAccount(memory.accounts.carol!);
    line('carol after a 502 and a retry', `sequence number ${carol.sequence_number} (${memory.requests.length} requests)`);
    const carolSent: string[] = [];
    for await (const tx of inMemory.v2.transactions(memory.accounts.carol!, { start: 0 })) carolSent.push(`${tx.status} ${tx.hash.slice(0, 10)}…`);
    line("carol's transactions", carolSent.join(', '));

    console.log('\nDone: every response above matched the specs.');
  } finally {
    await Promise.all([nodeStub.close(), priceStub.close()]);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
