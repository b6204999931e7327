/**
 * `tsx tools/readme-check/src/main.ts [--verbose]`: the README code-block checker's report (every ```ts block of
 * every README, tested verbatim, type-checked or opted out). Exit 1 when a block fails. `pnpm test` runs
 * the same check (tools/readme-check/test/readme-blocks.test.ts).
 */
import { checkAll, report } from './blocks.ts';

const started = performance.now();
const verdicts = checkAll();
console.log(report(verdicts));
if (process.argv.includes('--verbose')) {
  for (const v of verdicts) console.log(`  ${v.kind.padEnd(11)} ${v.block.file}:${v.block.line}  ${v.detail.split('\n')[0]}`);
}
console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
process.exitCode = verdicts.some((v) => v.kind === 'failed') ? 1 : 0;
