/**
 * What `x-stub` does with its flags, apart from the process: cli.ts adds the signals, the parent watch
 * and the exit code, so that tests run the command in-process.
 */
import { parseArgs } from 'node:util';
import { STUB_ACCOUNTS } from './node/accounts.ts';
import { DEFAULT_CHAIN_ID, type NodeStubHandle } from './node/stub.ts';
import { startNodeStub, startPriceStub } from './start.ts';
import { DEFAULT_PRICE_API_KEY, DEFAULT_PRICE_NOW, type PriceStubHandle } from './price/stub.ts';
import { ANY_OPERATION, DEFAULT_REQUEST_LOG_SIZE, FAULTS_PATH, MAX_FAULT_KEYS, REQUEST_LOG_PATH } from './engine.ts';
import { FAULT_KINDS, type FaultSpec } from './faults.ts';

const USAGE = `Usage: x-stub [--node-port 27000] [--price-port 27001] [--seed 1] [--api-key test-key] [--fixed-clock] [--shapes documented|live]
              [--request-log-size ${DEFAULT_REQUEST_LOG_SIZE}] [--chain-id ${DEFAULT_CHAIN_ID}] [--oldest-block 0] [--fault 503]

  --node-port   port of the node RPC stub (default 27000; 0 picks a free port)
  --price-port  port of the price-history stub (default 27001; 0 picks a free port)
  --seed        seed of the synthetic data, a number or any text (default 1)
  --api-key     the x-api-key /history requires (default ${DEFAULT_PRICE_API_KEY})
  --fixed-clock price stub clock fixed at ${new Date(DEFAULT_PRICE_NOW).toISOString()} (DEFAULT_PRICE_NOW) instead
                of the wall clock (the default, here as in the library), e.g. to match tests that fix it with
                now: () => DEFAULT_PRICE_NOW; every price answer says its clock in x-stub-clock
  --shapes      forms of the node stub's answers: documented (default) or live (what real nodes send);
                a request's x-stub-shapes header overrides it
  --request-log-size
                how many requests each stub keeps in its request log, the newest (default ${DEFAULT_REQUEST_LOG_SIZE});
                0 keeps none. DELETE ${REQUEST_LOG_PATH} on either stub empties its log and answers
                {"cleared": <how many it held>}, e.g. curl -X DELETE http://127.0.0.1:27000${REQUEST_LOG_PATH}
  --chain-id    the node stub's chain id, 0-255 (default ${DEFAULT_CHAIN_ID}): v3's x-supra-chain-id and every record's chain_id
  --oldest-block
                the lowest block height whose history the node stub keeps (default 0, nothing pruned): v3 history
                reads that start below it answer 410 with x-supra-oldest-block
  --fault       a node that always fails: every request of an operation of the node stub gets this fault,
                a 4xx/5xx status (429 and 503 with Retry-After: 1) or one of ${FAULT_KINDS.join(', ')}
                (default none), until DELETE ${FAULTS_PATH}
Faults: each stub keeps at most ${MAX_FAULT_KEYS} x-stub-fault-times counters (the oldest key forgotten first);
DELETE ${FAULTS_PATH} on either stub forgets them and drops the queued faults (--fault's included), and
answers {"counters": <how many>, "queued": <how many>}.
Both listen on 127.0.0.1 only.`;

function port(value: string | undefined, fallback: number, flag: string): number {
  if (value === undefined) return fallback;
  if (!/^[0-9]{1,5}$/.test(value) || Number(value) > 65535) throw new Error(`${flag} must be a port number, got '${value}'`);
  return Number(value);
}

/** A whole number of at most `max` (a flag's value), else `fallback` when the flag is absent. */
function whole(value: string | undefined, fallback: number, flag: string, what: string, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (!/^[0-9]{1,16}$/.test(value) || Number(value) > max) throw new Error(`${flag} must be ${what}, got '${value}'`);
  return Number(value);
}

function count(value: string | undefined, fallback: number, flag: string): number {
  if (value === undefined) return fallback;
  if (!/^[0-9]{1,15}$/.test(value)) throw new Error(`${flag} must be a whole number of requests, got '${value}'`);
  return Number(value);
}

/** The fault of `--fault`: a 4xx/5xx status or a fault kind; none when the flag is absent. */
function standingFault(value: string | undefined): FaultSpec | undefined {
  if (value === undefined) return undefined;
  const v = value.trim().toLowerCase();
  if (/^[45][0-9]{2}$/.test(v)) return Number(v);
  if ((FAULT_KINDS as readonly string[]).includes(v)) return v as FaultSpec;
  throw new Error(`--fault must be a 4xx/5xx status or one of ${FAULT_KINDS.join(', ')}, got '${value}'`);
}

/** Where `x-stub` reports: `console` for the command, a collector in a test. */
export type StubOutput = Pick<Console, 'log' | 'error'>;

/** The two stubs an `x-stub` run started. */
export interface RunningStubs {
  readonly node: NodeStubHandle;
  readonly price: PriceStubHandle;
  /**
   * Says why it stops (`SIGTERM: stopping`) and closes both stubs; resolves to the exit code, 1 when
   * closing failed. It stops once: a later call answers the first call's promise.
   */
  stop(reason: string): Promise<number>;
}

/** Starts both stubs as `values` (the parsed flags) say and prints where they listen. */
async function start(values: ReturnType<typeof parse>['values'], output: StubOutput): Promise<RunningStubs> {
  const seedText = values.seed ?? '1';
  const seed = /^[0-9]+$/.test(seedText) ? Number(seedText) : seedText;
  const shapes = values.shapes;
  if (shapes !== 'documented' && shapes !== 'live') throw new Error(`--shapes must be documented or live, got '${shapes}'`);
  const requestLogSize = count(values['request-log-size'], DEFAULT_REQUEST_LOG_SIZE, '--request-log-size');
  const chainId = whole(values['chain-id'], DEFAULT_CHAIN_ID, '--chain-id', 'a chain id from 0 to 255', 255);
  const oldestBlock = whole(values['oldest-block'], 0, '--oldest-block', 'a block height (a whole number)');
  const pricePort = port(values['price-port'], 27001, '--price-port');
  const fault = standingFault(values.fault);
  const node = await startNodeStub({ port: port(values['node-port'], 27000, '--node-port'), seed, shapes, requestLogSize, chainId, oldestBlock });
  // Queued as an endless fault of every operation: DELETE /__stub/faults (or the handle's reset()) lifts it.
  if (fault !== undefined) node.failNext(ANY_OPERATION, fault, Infinity);
  let price: PriceStubHandle;
  try {
    price = await startPriceStub({
      port: pricePort,
      seed,
      requestLogSize,
      apiKey: values['api-key'] ?? DEFAULT_PRICE_API_KEY,
      // The library's default clock is the wall clock too: only --fixed-clock passes one.
      ...(values['fixed-clock'] ? { now: () => DEFAULT_PRICE_NOW } : {}),
    });
  } catch (err) {
    // The command's process exits on this error; a caller in-process would keep the node stub's port.
    await node.close();
    throw err;
  }
  output.log(`node stub:  ${node.url}   (seed ${node.seed}, ${node.shapes} shapes, chain id ${node.chainId}${node.oldestBlock > 0 ? `, history from block ${node.oldestBlock}` : ''}${fault === undefined ? '' : `, every operation faulted: ${fault} (--fault)`})`);
  output.log(`price stub: ${price.url}   (x-api-key: ${price.apiKey}; candle feed ${price.webSocketUrl})`);
  output.log(
    values['fixed-clock']
      ? `price clock: fixed at ${new Date(DEFAULT_PRICE_NOW).toISOString()} (--fixed-clock): /history has candles of the 30 days before it`
      : 'price clock: real (the wall clock): /history has candles of the last 30 days; --fixed-clock fixes it at ' + new Date(DEFAULT_PRICE_NOW).toISOString(),
  );
  output.log('accounts:');
  for (const [name, address] of Object.entries(STUB_ACCOUNTS)) output.log(`  ${name.padEnd(12)} ${address}`);
  output.log('Ctrl-C to stop.');

  let stopping: Promise<number> | undefined;
  const stop = (reason: string): Promise<number> =>
    (stopping ??= (async () => {
      output.log(`\n${reason}: stopping`);
      try {
        await Promise.all([node.close(), price.close()]);
        return 0;
      } catch (err) {
        output.error(err);
        return 1;
      }
    })());
  return { node, price, stop };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    options: {
      'node-port': { type: 'string' },
      'price-port': { type: 'string' },
      seed: { type: 'string' },
      'api-key': { type: 'string' },
      'fixed-clock': { type: 'boolean', default: false },
      shapes: { type: 'string', default: 'documented' },
      'request-log-size': { type: 'string' },
      'chain-id': { type: 'string' },
      'oldest-block': { type: 'string' },
      fault: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
}

/**
 * `x-stub` with `argv` (its flags), in-process: with `--help`, prints the usage and resolves to 0; with a
 * flag it refuses, or a port it cannot listen on, prints why and the usage and resolves to 1; else
 * starts both stubs, prints where they listen, and resolves to them, running until `stop`.
 */
export async function runStub(argv: readonly string[], output: StubOutput = console): Promise<number | RunningStubs> {
  try {
    const { values } = parse(argv);
    if (values.help) {
      output.log(USAGE);
      return 0;
    }
    return await start(values, output);
  } catch (err) {
    output.error(err instanceof Error ? err.message : err);
    output.error(USAGE);
    return 1;
  }
}
