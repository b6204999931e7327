import { checkAll, report, type Verdict } from './blocks.ts';

/** Where the checker reports: `console` for the command, a collector in a test. */
export type ReadmeCheckOutput = Pick<Console, 'log'>;

/**
 * `tsx tools/readme-check/src/main.ts` with `argv` (`--verbose` lists every block), in-process: prints
 * the report and how long the check took; returns the exit code, 1 when a block fails.
 *
 * @param check - the check to report on; a test passes the verdicts it already has, the check being
 *   seconds of tsc.
 */
export function runReadmeCheck(argv: readonly string[], output: ReadmeCheckOutput = console, check: () => readonly Verdict[] = checkAll): number {
  const started = performance.now();
  const verdicts = check();
  output.log(report(verdicts));
  if (argv.includes('--verbose')) {
    for (const v of verdicts) output.log(`  ${v.kind.padEnd(11)} ${v.block.file}:${v.block.line}  ${v.detail.split('\n')[0]}`);
  }
  output.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
  return verdicts.some((v) => v.kind === 'failed') ? 1 : 0;
}
