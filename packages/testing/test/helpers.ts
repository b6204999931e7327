import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import { runStub, type RunningStubs } from '../src/command.ts';
/**
 * The stubs' own test plumbing: their seed (`useNodeStub(SEED)`, `usePriceStub({ seed: SEED })` of
 * `@x-tools/test-helpers`), a plain fetch, and the shapes of the records the tests read.
 */
export const SEED = 20241119;

export interface Fetched<T> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

/** An answer read whole: its text, and its JSON (`undefined` when it is not JSON). */
async function fetched<T>(res: Response): Promise<Fetched<T>> {
  const text = await res.text();
  let body: T;
  try {
    body = JSON.parse(text) as T;
  } catch {
    body = undefined as T;
  }
  return { status: res.status, headers: res.headers, text, body };
}

/** GET and parse JSON (the body is `undefined` when it is not JSON). */
export async function get<T = unknown>(url: string, headers: Record<string, string> = {}): Promise<Fetched<T>> {
  return fetched<T>(await fetch(url, { headers }));
}

/** POST `body` as JSON (or as the text given) and parse the answer's JSON, as `get` does. */
export async function post<T = unknown>(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Fetched<T>> {
  return fetched<T>(await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) }));
}

/** Minimal shapes of the records the tests read (the full types live in @x/node-types). */
export interface TxV {
  hash: string;
  header: { sender: string; sequence_number: number };
  block_header: { height: number; timestamp: { timestamp: number } } | null;
  output?: unknown;
  status: string;
}
export interface Statement {
  record: TxV[];
}
export interface CoinStatement {
  record: TxV[];
  cursor: number;
}
export interface MoveEvent {
  guid: string;
  sequence_number: number;
  type: string;
  data: unknown;
}

export function eventsOf(tx: TxV): MoveEvent[] {
  const out = tx.output;
  if (typeof out === 'object' && out !== null && 'Move' in out) {
    return (out as { Move: { events: MoveEvent[] } }).Move.events;
  }
  return [];
}

export const hexOf = (bytes: number[]): string => Buffer.from(bytes).toString('hex');

/** What a running `x-stub` printed, and the URLs of its two stubs. */
export type CliRun = { out: string; nodeUrl: string; priceUrl: string };

/** `x-stub` with `argv` in-process (`runStub`, what the command runs): its exit code, or the running stubs, and what it printed. */
export async function stubCommand(argv: string[]): Promise<{ run: number | RunningStubs; printed: { out: string; err: string } }> {
  const printed = { out: '', err: '' };
  const output = { log: (...data: unknown[]) => (printed.out += `${format(...data)}\n`), error: (...data: unknown[]) => (printed.err += `${format(...data)}\n`) };
  return { run: await runStub(argv, output), printed };
}

/**
 * As {@link withCli}, in-process: `x-stub` with `flags` on ports the system picks, `use` called with what
 * it printed, then stopped as by SIGTERM, which must be clean.
 */
export async function withStubCommand<T>(flags: string[], use: (run: CliRun) => Promise<T>): Promise<T> {
  const { run, printed } = await stubCommand(['--node-port', '0', '--price-port', '0', ...flags]);
  if (typeof run === 'number') throw new Error(`x-stub ended with ${run}: ${printed.out}${printed.err}`);
  let result: T;
  try {
    const out = printed.out;
    result = await use({ out, nodeUrl: /node stub:\s+(\S+)/.exec(out)![1]!, priceUrl: /price stub:\s+(\S+)/.exec(out)![1]! });
  } catch (error) {
    await run.stop('SIGTERM');
    throw error;
  }
  const code = await run.stop('SIGTERM');
  if (code !== 0 || !/\nSIGTERM: stopping\n$/.test(printed.out)) throw new Error(`x-stub did not stop cleanly (${code}): ${printed.out}${printed.err}`);
  return result;
}

/**
 * Runs `x-stub` (from source, on ports the system picks) with `flags` in a process of its own, calls
 * `use` once it prints that it is ready, then stops it with SIGTERM and expects a clean exit: the one
 * spawned smoke of the command (cli-clock.test.ts); the other tests run it in-process ({@link withStubCommand}).
 */
export async function withCli<T>(flags: string[], use: (run: CliRun) => Promise<T>): Promise<T> {
  const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', cli, '--node-port', '0', '--price-port', '0', ...flags], {
    cwd: fileURLToPath(new URL('../../..', import.meta.url)),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d: string) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    while (!out.includes('Ctrl-C')) {
      if (child.exitCode !== null) throw new Error(`cli exited early: ${out}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const result = await use({ out, nodeUrl: /node stub:\s+(\S+)/.exec(out)![1]!, priceUrl: /price stub:\s+(\S+)/.exec(out)![1]! });
    child.kill('SIGTERM');
    if ((await exited) !== 0) throw new Error(`x-stub did not exit cleanly on SIGTERM: ${out}`);
    return result;
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}
