import { parseArgs } from 'node:util';
import { run } from './run.js';
import { record, RecordError } from './record.js';
import { FORMATS, type Format } from './report.js';
import { EXIT, PRICE_KEY_ENV, RECORD_OPTIONS, USAGE, VALIDATE_OPTIONS } from './options.js';
import { printable } from './printable.js';

/** Where the command writes and what it reads from its process: the real ones in main.ts, captured ones in tests. */
export type CommandIo = {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Readonly<Record<string, string | undefined>>;
  /**
   * The directory relative paths (inputs, `--out`) are read from and written to; absent, the process's
   * own. Paths are shown as given either way, so a test can run the command from a folder of its own.
   */
  cwd?: string;
};

/**
 * `x-validate` as its process runs it, with the arguments after the command name; resolves to the exit
 * code and never rejects: a bad flag (parseArgs' message) or a crash is written to stderr as
 * `x-validate: <message>` and answers 2. main.ts calls it with the process's streams and environment;
 * tests call it in-process with captured ones, so they check what a user sees without spawning a
 * process per run.
 *
 * @example
 * ```ts
 * process.exitCode = await cli(process.argv.slice(2), { stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s), env: process.env });
 * ```
 */
export async function cli(argv: readonly string[], io: CommandIo): Promise<number> {
  try {
    return await main(argv, io);
  } catch (err) {
    io.stderr(`x-validate: ${printable(err instanceof Error ? err.message : String(err), 1000)}\n`);
    return EXIT.usage;
  }
}

/**
 * The command proper; resolves to the exit code. A bad flag rejects (parseArgs' message); a recording
 * a server kept from completing answers 1, its reason on stderr.
 */
async function main(argv: readonly string[], io: CommandIo): Promise<number> {
  const usage = (code: number): number => {
    (code === 0 ? io.stdout : io.stderr)(`${USAGE}\n`);
    return code;
  };
  if (argv[0] === 'record') {
    const { values } = parseArgs({ args: argv.slice(1), options: RECORD_OPTIONS });
    if (values.help) return usage(EXIT.ok);
    const count = Number(values.count);
    if (!values['base-url'] || !values.address || !Number.isInteger(count) || count < 1) return usage(EXIT.usage);
    const timeoutMs = positive(values['timeout-ms']);
    const maxTotalBytes = positive(values['max-total-bytes']);
    const deadlineMs = positive(values['deadline-ms']);
    for (const [flag, value, unit] of [['timeout-ms', timeoutMs, 'milliseconds'], ['max-total-bytes', maxTotalBytes, 'bytes'], ['deadline-ms', deadlineMs, 'milliseconds']] as const) {
      if (value === undefined) {
        io.stderr(`x-validate record: --${flag} must be a whole number of ${unit}, at least 1, got ${printable(JSON.stringify(values[flag]), 80)}\n`);
        return usage(EXIT.usage);
      }
    }
    const priceBase = values['price-base-url'];
    const apiKey = io.env[PRICE_KEY_ENV];
    if (priceBase && !apiKey) {
      // Refused before any request: /history answers 401 without a key, which would record nothing useful.
      io.stderr(
        `x-validate record: --price-base-url needs the price service's API key in the environment variable ${PRICE_KEY_ENV}` +
          ` (sent as the x-api-key header, recorded as [REDACTED]); it is not set\n`,
      );
      return EXIT.usage;
    }
    try {
      const { file, entries } = await record({
        baseUrl: values['base-url'],
        address: values.address,
        outDir: values.out,
        count,
        timeoutMs,
        maxTotalBytes,
        deadlineMs,
        fundFromFaucet: values['fund-from-faucet'],
        cwd: io.cwd,
        price: priceBase && apiKey ? { baseUrl: priceBase, pair: values.pair, apiKey } : undefined,
        progress: (line) => io.stderr(`${printable(line, 1000)}\n`),
      });
      io.stderr(`wrote ${entries} entries to ${printable(file, 1000)}\n`);
    } catch (err) {
      if (!(err instanceof RecordError)) throw err;
      io.stderr(`x-validate record: ${printable(err.message, 1000)}\n`);
      return EXIT.failed;
    }
    return EXIT.ok;
  }
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: VALIDATE_OPTIONS });
  if (values.help) return usage(EXIT.ok);
  if (!FORMATS.includes(values.format as Format)) {
    io.stderr(`x-validate: --format must be one of ${FORMATS.join(', ')}, got ${printable(JSON.stringify(values.format), 80)}\n`);
    return usage(EXIT.usage);
  }
  if (positionals.length === 0) {
    io.stderr('x-validate: no files or directories to validate\n');
    return usage(EXIT.usage);
  }
  if (values.profile !== 'documented' && values.profile !== 'live') {
    io.stderr(`x-validate: --profile must be documented or live, got ${JSON.stringify(values.profile)}\n`);
    return usage(EXIT.usage);
  }
  const maxFileBytes = positive(values['max-file-bytes']);
  if (maxFileBytes === undefined) {
    io.stderr(`x-validate: --max-file-bytes must be a whole number of bytes, at least 1, got ${printable(JSON.stringify(values['max-file-bytes']), 80)}\n`);
    return usage(EXIT.usage);
  }
  const apiKey = io.env[PRICE_KEY_ENV];
  const { output, failed } = await run(positionals, {
    maxFileBytes,
    strict: values.strict,
    format: values.format as Format,
    profile: values.profile,
    driftAsWarning: values['drift-as-warning'],
    secrets: apiKey ? [apiKey] : [],
    cwd: io.cwd,
  });
  io.stdout(output);
  return failed ? EXIT.failed : EXIT.ok;
}

/** A flag's value as a whole number of at least 1 (decimal digits only), else undefined. */
function positive(value: string | undefined): number | undefined {
  const n = value !== undefined && /^[0-9]{1,16}$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n >= 1 ? n : undefined;
}
