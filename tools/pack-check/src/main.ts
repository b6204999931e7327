/**
 * Checks of the packages as published, run on tarballs made by `pnpm pack` from the built dist/:
 *
 *   tsx tools/pack-check/src/main.ts lint      # pnpm lint:packages: tarball contents, publint, attw
 *   tsx tools/pack-check/src/main.ts install   # pnpm test:install: each package installed alone with npm (every
 *                                              # subpath, without optional peers), then with its optional peers
 *   tsx tools/pack-check/src/main.ts publish   # pnpm release:dry-run: each tarball through `npm publish --dry-run`
 *   tsx tools/pack-check/src/main.ts --keep    # keep the temporary folder (its path is printed)
 *
 * Builds nothing: run `pnpm build` first (`pnpm check` does). The tarballs are packed once per build and
 * shared by these checks and `pnpm test:newcomer` (`packAll`). Exit 1 when a check fails.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { installAlone } from './install.ts';
import { publishDryRun } from './publish.ts';
import { lintPackages } from './lint.ts';
import { Tally, packAll, seconds, workspacePackages } from './shared.ts';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { keep: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
const what = positionals[0] ?? '';
if (values.help || !['lint', 'install', 'publish'].includes(what)) {
  console.log('Usage: tsx tools/pack-check/src/main.ts lint|install|publish [--keep]');
  process.exit(values.help ? 0 : 2);
}

const start = performance.now();
// Outside the workspace, so npm sees no workspace, lockfile or .npmrc of ours.
const work = mkdtempSync(join(tmpdir(), `x-pack-check-${what}-`));
const tally = new Tally();
try {
  const pkgs = workspacePackages();
  const packed = await packAll(pkgs, join(work, 'tarballs'));
  console.log(`Packed ${packed.map((p) => `${p.pkg.name}@${p.pkg.version}`).join(', ')} in ${seconds(start)}`);
  if (what === 'lint') await lintPackages(packed, tally);
  else if (what === 'publish') await publishDryRun(packed, tally);
  else await installAlone(packed, work, tally);
} catch (error) {
  tally.fail('pack-check could not run', error instanceof Error ? (error.stack ?? error.message) : String(error));
} finally {
  if (values.keep) console.log(`\nKept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
console.log(`(${seconds(start)})`);
tally.summary(what === 'lint' ? 'packages' : what);
process.exitCode = tally.failed > 0 ? 1 : 0;
