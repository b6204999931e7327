#!/usr/bin/env node
// The process around the command: its streams, environment and exit code. Everything else is cli(),
// which tests call in-process.
import { cli } from './command.js';

// A reader that stops early (`x-validate ... | head`) closes the pipe: not an error of the run.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
});

void cli(process.argv.slice(2), { stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s), env: process.env }).then((code) => {
  process.exitCode = code;
});
