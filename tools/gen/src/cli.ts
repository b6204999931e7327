// `pnpm gen`: the command line of runGen (command.ts), which tests call in-process, and then the API
// reports of the packages it generates into: a spec change changes their public surface, so `--write`
// (and the default) rewrites the reports and `--check` checks them. `--code-only` leaves the reports
// alone: turbo's cached `gen:write` task, after which the default path writes them itself.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { runGen } from './command.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');

/** Builds the packages (turbo: a cache hit when built) and checks or rewrites their API reports. */
async function apiReports(write: boolean): Promise<number> {
  const build = spawnSync('pnpm', ['exec', 'turbo', 'run', 'build', '--filter=./packages/*', '--output-logs=errors-only'], { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' });
  if (build.status !== 0) {
    console.error('gen: the packages do not build, so their API reports cannot be read (see above)');
    return build.status ?? 1;
  }
  const { apiReport } = await import('../../api-report/src/report.ts');
  return apiReport({ write, root: ROOT });
}

const argv = process.argv.slice(2);
const codeOnly = argv.includes('--code-only');
let code = await runGen(argv.filter((a) => a !== '--code-only'));
if (code === 0 && !codeOnly && !argv.includes('--help') && !argv.includes('-h')) code = await apiReports(!argv.includes('--check'));
if (code !== 0) process.exit(code);
