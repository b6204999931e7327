#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { run } from './run.js';
import { record } from './record.js';
import { FORMATS, type Format } from './report.js';

const USAGE = `Usage:
  x-validate [--strict] [--profile documented|live] [--drift-as-warning]
             [--format text|json|junit] <files or dirs>...
      Validates recorded responses (HAR 1.2 files, or JSON envelopes
      { "request": { "method", "url" }, "response": { "status", "body" } }) against the
      Supra node RPC and price-history specs. Each failure is "known drift" (what live nodes
      are observed to send: passes the live reading, names the overlay actions) or a
      "violation" (fits neither reading). Default profile documented: exit 1 on any failure
      (known drift only warns with --drift-as-warning). --profile live: exit 1 only on
      violations. Exit 1 when an input cannot be read; unknown paths are skipped.
  x-validate record --base-url URL --address ADDRESS [--out DIR] [--count N]
                    [--price-base-url URL --pair PAIR]
      Calls every account operation of both node versions (one page past each cursor), and the
      price operations when --price-base-url is given (key from $X_PRICE_API_KEY, recorded
      redacted), and writes a HAR file to DIR (default .). Progress goes to stderr.`;

async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'record') {
    const { values } = parseArgs({
      args: argv.slice(1),
      options: {
        'base-url': { type: 'string' },
        address: { type: 'string' },
        out: { type: 'string', default: '.' },
        count: { type: 'string', default: '5' },
        'price-base-url': { type: 'string' },
        pair: { type: 'string', default: 'btc_usdt' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) return usage(0);
    const count = Number(values.count);
    if (!values['base-url'] || !values.address || !Number.isInteger(count) || count < 1) return usage(2);
    const priceBase = values['price-base-url'];
    const { file, entries } = await record({
      baseUrl: values['base-url'],
      address: values.address,
      outDir: values.out,
      count,
      price: priceBase ? { baseUrl: priceBase, pair: values.pair, apiKey: process.env.X_PRICE_API_KEY } : undefined,
      progress: (line) => process.stderr.write(`${line}\n`),
    });
    process.stderr.write(`wrote ${entries} entries to ${file}\n`);
    return 0;
  }
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      strict: { type: 'boolean', default: false },
      profile: { type: 'string', default: 'documented' },
      'drift-as-warning': { type: 'boolean', default: false },
      format: { type: 'string', default: 'text' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return usage(0);
  if (!FORMATS.includes(values.format as Format) || positionals.length === 0) return usage(2);
  if (values.profile !== 'documented' && values.profile !== 'live') {
    process.stderr.write(`x-validate: --profile must be documented or live, got ${JSON.stringify(values.profile)}\n`);
    return usage(2);
  }
  const { output, failed } = await run(positionals, {
    strict: values.strict,
    format: values.format as Format,
    profile: values.profile,
    driftAsWarning: values['drift-as-warning'],
  });
  process.stdout.write(output);
  return failed ? 1 : 0;
}

function usage(code: number): number {
  (code === 0 ? process.stdout : process.stderr).write(`${USAGE}\n`);
  return code;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`x-validate: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 2;
  },
);
