/**
 * `x-stub` (`npx x-stub`, `pnpm stub` in this repository): the node stub on 127.0.0.1:27000 (the local
 * network port of the document) and the price stub on 127.0.0.1:27001, until SIGINT or SIGTERM. The
 * command itself is runStub (command.ts); this file is its process: the signals, the parent watch, the
 * exit code.
 */
import { runStub } from './command.ts';

const run = await runStub(process.argv.slice(2));
if (typeof run === 'number') {
  if (run !== 0) process.exit(run);
} else {
  const stop = (reason: string): void => void run.stop(reason).then((code) => process.exit(code));
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  // Started by a wrapper (`npx x-stub &`, a test runner) that is killed without passing the signal on, the
  // stub would hold its ports for good: when this process is handed to another parent, it stops too.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) stop('parent gone');
  }, 500).unref();
}
