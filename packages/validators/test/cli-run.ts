/**
 * `x-validate` run in-process, the way main.ts runs it in a process: the same entry (`cli`), so a bad
 * flag or a crash is exit 2 with its message on stderr, and the output is what a user would read. A
 * spawned `tsx` costs a second or more of CPU per run; this costs the run itself.
 */
import { cli } from '../src/cli/command.ts';
import { within } from './helpers.ts';

/** What one run of the command did. */
export type CliRun = { code: number; stdout: string; stderr: string };

/**
 * Runs `x-validate argv` with `env` as its whole environment (nothing of the test process's leaks in, a
 * price key the developer has set included) and `cwd` as its working directory (default the test
 * process's), capturing what it writes. A run that hangs fails, naming itself, instead of stalling.
 *
 * @example
 * ```ts
 * const r = await xValidate(['--strict', 'answers.json'], {}, dir);
 * expect(r.code).toBe(1);
 * ```
 */
export async function xValidate(argv: string[], env: Readonly<Record<string, string>> = {}, cwd?: string): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io = { stdout: (s: string) => void (stdout += s), stderr: (s: string) => void (stderr += s), env, cwd };
  const code = await within(15_000, `x-validate ${argv.join(' ')}`, cli(argv, io));
  return { code, stdout, stderr };
}
