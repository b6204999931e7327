import { parseArgs } from 'node:util';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

// The generator (openapi-typescript, ajv, esbuild) loads only when it runs: the default path just
// hands over to turbo, which answers from its cache when nothing changed. (So the root is computed here
// rather than taken from specs.ts; spelled as there, so generate() sees the same path as by default.)
const ROOT = join(import.meta.dirname, '..', '..', '..');

const USAGE = `Usage: pnpm gen [--check | --write]
  (no flag)  regenerate through turbo, which skips the work when specs and generator are unchanged
  --write    regenerate now, without turbo's cache
  --check    exit 1 and name the stale files when packages/*/src/generated is out of date
  Then the packages are built and their API reports (packages/*/api) rewritten, or with --check
  checked; --code-only leaves them.`;

/** Where `pnpm gen` reports: `console` for the command, a collector in a test. */
export type GenOutput = Pick<Console, 'log' | 'error'>;

/**
 * `pnpm gen` with `argv` (its flags): what tools/gen/src/cli.ts runs, callable in-process.
 *
 * @param root - the repository to generate into; the command line has no such flag (it generates the
 *   repository it lives in), a test passes a temporary tree.
 * @returns the exit code: 0, or 1 when `--check` finds stale files; turbo's own on the default path.
 */
export async function runGen(argv: readonly string[], output: GenOutput = console, root = ROOT): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: { check: { type: 'boolean' }, write: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });

  if (values.help) {
    output.log(USAGE);
    return 0;
  }
  if (values.check) {
    const [{ generate }, { staleFiles }] = await Promise.all([import('./generate.ts'), import('./files.ts')]);
    const stale = staleFiles(root, await generate(root));
    if (stale.length > 0) {
      output.error(`Generated code is stale; run \`pnpm gen\` and commit the result:\n  ${stale.join('\n  ')}`);
      return 1;
    }
    output.log('Generated code is up to date.');
    return 0;
  }
  if (values.write) {
    const [{ generate }, { writeFiles }] = await Promise.all([import('./generate.ts'), import('./files.ts')]);
    const changed = writeFiles(root, await generate(root));
    output.log(changed.length ? `Wrote:\n  ${changed.join('\n  ')}` : 'Generated code was already up to date.');
    return 0;
  }
  const r = spawnSync('turbo', ['run', 'gen:write', '--output-logs=new-only'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  return r.status ?? 1;
}
