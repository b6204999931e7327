#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { run } from './run.js';
import { record } from './record.js';
import { FORMATS, type Format } from './report.js';
import { EXIT, PRICE_KEY_ENV, RECORD_OPTIONS, USAGE, VALIDATE_OPTIONS } from './options.js';

async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'record') {
    const { values } = parseArgs({ args: argv.slice(1), options: RECORD_OPTIONS });
    if (values.help) return usage(EXIT.ok);
    const count = Number(values.count);
    if (!values['base-url'] || !values.address || !Number.isInteger(count) || count < 1) return usage(EXIT.usage);
    const priceBase = values['price-base-url'];
    const apiKey = process.env[PRICE_KEY_ENV];
    if (priceBase && !apiKey) {
      // Refused before any request: /history answers 401 without a key, which would record nothing useful.
      process.stderr.write(
        `x-validate record: --price-base-url needs the price service's API key in the environment variable ${PRICE_KEY_ENV}` +
          ` (sent as the x-api-key header, recorded as [REDACTED]); it is not set\n`,
      );
      return EXIT.usage;
    }
    const { file, entries } = await record({
      baseUrl: values['base-url'],
      address: values.address,
      outDir: values.out,
      count,
      price: priceBase && apiKey ? { baseUrl: priceBase, pair: values.pair, apiKey } : undefined,
      progress: (line) => process.stderr.write(`${line}\n`),
    });
    process.stderr.write(`wrote ${entries} entries to ${file}\n`);
    return EXIT.ok;
  }
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: VALIDATE_OPTIONS });
  if (values.help) return usage(EXIT.ok);
  if (!FORMATS.includes(values.format as Format) || positionals.length === 0) return usage(EXIT.usage);
  if (values.profile !== 'documented' && values.profile !== 'live') {
    process.stderr.write(`x-validate: --profile must be documented or live, got ${JSON.stringify(values.profile)}\n`);
    return usage(EXIT.usage);
  }
  const apiKey = process.env[PRICE_KEY_ENV];
  const { output, failed } = await run(positionals, {
    strict: values.strict,
    format: values.format as Format,
    profile: values.profile,
    driftAsWarning: values['drift-as-warning'],
    secrets: apiKey ? [apiKey] : [],
  });
  process.stdout.write(output);
  return failed ? EXIT.failed : EXIT.ok;
}

function usage(code: number): number {
  (code === 0 ? process.stdout : process.stderr).write(`${USAGE}\n`);
  return code;
}

// A reader that stops early (`x-validate ... | head`) closes the pipe: not an error of the run.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`x-validate: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = EXIT.usage;
  },
);
