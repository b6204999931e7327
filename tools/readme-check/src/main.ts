/**
 * `tsx tools/readme-check/src/main.ts [--verbose]`: the README code-block checker's report (every ```ts block of
 * every README, tested verbatim, type-checked or opted out). Exit 1 when a block fails. `pnpm test` runs
 * the same check (tools/readme-check/test/readme-blocks.test.ts), and this command in-process (command.ts).
 */
import { runReadmeCheck } from './command.ts';

process.exitCode = runReadmeCheck(process.argv.slice(2));
