#!/usr/bin/env node
import { main } from './command.js';
import { EXIT } from './options.js';
import { printable } from './printable.js';

// A reader that stops early (`x-validate ... | head`) closes the pipe: not an error of the run.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
});

main(process.argv.slice(2), { stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s), env: process.env }).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`x-validate: ${printable(err instanceof Error ? err.message : String(err), 1000)}\n`);
    process.exitCode = EXIT.usage;
  },
);
