/**
 * The newcomer test (`pnpm test:newcomer`, part of `pnpm check`): what a new user does, following the root
 * README.
 *
 * 1. Pack every published package (`pnpm pack`, as the README's "Install" says; pack-check's `packAll`).
 * 2. Install all the tarballs together with npm into an empty project in the OS temp folder (third-party
 *    dependencies from the registry).
 * 3. Start `npx x-stub` from the installed `@x/testing` (free ports), and read its banner.
 * 4. Run the README's quickstart (its first ```ts block under "Quickstart", plain JavaScript) with node
 *    against it, its URLs replaced by the stub's, and check what it prints.
 * 5. Type-check the quickstart, as it is in the README, as `quickstart.mts` against the installed packages:
 *    strict, `exactOptionalPropertyTypes`, `noUncheckedIndexedAccess`, module `nodenext`.
 * 6. The pnpm route: the README's pnpm commands (its ```sh block after "With pnpm"), run by sh in another
 *    empty project, the tarballs' folder for its `/tmp/x-tarballs`; then the quickstart with node under
 *    pnpm's strict layout (only the clients and `@x/testing` added), against the same stub.
 *
 *   tsx tools/newcomer/src/main.ts [--keep]   # --keep: keep the temporary project (its path is printed)
 *
 * Builds nothing: run `pnpm build` first (`pnpm check` does). Exit 1 when a step fails.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, Tally, packAll, run, seconds, workspacePackages } from '../../pack-check/src/shared.ts';

const { values } = parseArgs({ options: { keep: { type: 'boolean' } } });

/** The README's quickstart: the first ```ts block after the "## Quickstart" heading. */
export function quickstart(readme: string): string {
  const at = readme.indexOf('\n## Quickstart\n');
  if (at < 0) throw new Error('README.md has no "## Quickstart" section');
  const m = /\n```ts\n([\s\S]*?)\n```\n/.exec(readme.slice(at));
  if (!m) throw new Error('the Quickstart section has no ```ts block');
  return m[1]! + '\n';
}

/** The README's pnpm route: the ```sh block after the paragraph that starts "With pnpm". */
export function pnpmRoute(readme: string): string {
  const at = readme.indexOf('\nWith pnpm, ');
  const m = at < 0 ? null : /\n```sh\n([\s\S]*?)\n```\n/.exec(readme.slice(at));
  if (!m) throw new Error('README.md has no ```sh block after "With pnpm, "');
  return m[1]! + '\n';
}

/** npm's and node's environment in the project: none of pnpm's npm_config_* of the outer run, no NODE_PATH. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(npm_|pnpm_|PNPM_|NODE_PATH$)/i.test(k)) env[k] = v;
  return { ...env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
}

const tally = new Tally();
const started = performance.now();
const work = mkdtempSync(join(tmpdir(), 'x-newcomer-'));
const project = join(work, 'project');
const env = cleanEnv();
let stub: ReturnType<typeof spawn> | undefined;
try {
  // 1. Pack.
  const packed = await packAll(workspacePackages(), join(work, 'tarballs'));
  console.log(`packed ${packed.map((p) => p.pkg.name).join(', ')} (${seconds(started)})`);

  // 2. Install every tarball together into an empty project.
  const t1 = performance.now();
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'newcomer', private: true, version: '0.0.0', type: 'module' }, null, 2));
  const inst = await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...packed.map((p) => p.tarball)], { cwd: project, env });
  tally.check(`npm install of the ${packed.length} tarballs together (${seconds(t1)})`, inst.code === 0, inst.stdout + inst.stderr);
  if (inst.code !== 0) throw new Error('npm install failed');

  // 3. npx x-stub, from the installed @x/testing.
  const t2 = performance.now();
  const child = spawn('npx', ['--no-install', 'x-stub', '--node-port', '0', '--price-port', '0'], {
    cwd: project,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group (npx, npm exec, node), stopped as one below
  });
  stub = child;
  let banner = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (d: string) => (banner += d));
  child.stderr.on('data', (d: string) => (banner += d));
  const deadline = Date.now() + 30_000;
  while (!banner.includes('Ctrl-C') && child.exitCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  const nodeUrl = /node stub:\s+(\S+)/.exec(banner)?.[1];
  const priceUrl = /price stub:\s+(\S+)/.exec(banner)?.[1];
  tally.check(`npx x-stub starts both stubs (${seconds(t2)})`, nodeUrl !== undefined && priceUrl !== undefined, banner);
  tally.check('npx x-stub says which clock the price stub uses (real by default)', /price clock: real/.test(banner), banner);
  if (nodeUrl === undefined || priceUrl === undefined) throw new Error('x-stub did not start');

  // 4. The quickstart, run with node against the stub.
  const code = quickstart(readFileSync(join(ROOT, 'README.md'), 'utf8'));
  tally.check("the quickstart uses the stubs' default URLs", code.includes('http://127.0.0.1:27000') && code.includes('http://127.0.0.1:27001'), code);
  writeFileSync(join(project, 'quickstart.mjs'), code.replaceAll('http://127.0.0.1:27000', nodeUrl).replaceAll('http://127.0.0.1:27001', priceUrl));
  const t3 = performance.now();
  const ran = await run(process.execPath, ['quickstart.mjs'], { cwd: project, env, timeoutMs: 60_000 });
  const lines = ran.stdout.trim().split('\n');
  tally.check(`node quickstart.mjs runs (${seconds(t3)})`, ran.code === 0, ran.stdout + ran.stderr);
  tally.check('it prints the sequence numbers of transactions 10 to 14', /\[ 10, 11, 12, 13, 14 \]/.test(lines[0] ?? ''), ran.stdout);
  tally.check('it prints 24: the last 24 hourly candles', lines[1]?.trim() === '24', ran.stdout);

  // 5. The quickstart type-checked as it is, against the installed packages.
  writeFileSync(join(project, 'quickstart.mts'), code);
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          lib: ['ES2022', 'DOM'],
          types: [],
          strict: true,
          exactOptionalPropertyTypes: true,
          noUncheckedIndexedAccess: true,
          noEmit: true,
          skipLibCheck: false,
          skipDefaultLibCheck: true,
        },
        files: ['quickstart.mts'],
      },
      null,
      2,
    ),
  );
  const t4 = performance.now();
  const tsc = await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: project, env });
  tally.check(`tsc: the quickstart type-checks strictly with exactOptionalPropertyTypes (${seconds(t4)})`, tsc.code === 0, tsc.stdout + tsc.stderr);

  // 6. The pnpm route, as the README gives it, then the quickstart under pnpm's strict layout.
  const t5 = performance.now();
  const viaPnpm = join(work, 'pnpm-project');
  mkdirSync(viaPnpm);
  writeFileSync(join(viaPnpm, 'package.json'), JSON.stringify({ name: 'newcomer-pnpm', private: true, version: '0.0.0', type: 'module' }, null, 2));
  const route = pnpmRoute(readFileSync(join(ROOT, 'README.md'), 'utf8'));
  tally.check('the pnpm route names the folder and project of the npm route', route.includes('/tmp/x-tarballs/') && route.includes('cd /path/to/your-project'), route);
  const script = route.replaceAll('/tmp/x-tarballs/', `${join(work, 'tarballs')}/`).replace('cd /path/to/your-project', `cd '${viaPnpm}'`);
  const added = await run('sh', ['-ec', script], { cwd: viaPnpm, env, timeoutMs: 120_000 });
  tally.check(`the README's pnpm route installs the clients and @x/testing from the tarballs (${seconds(t5)})`, added.code === 0, added.stdout + added.stderr);
  writeFileSync(join(viaPnpm, 'quickstart.mjs'), code.replaceAll('http://127.0.0.1:27000', nodeUrl).replaceAll('http://127.0.0.1:27001', priceUrl));
  const ranPnpm = await run(process.execPath, ['quickstart.mjs'], { cwd: viaPnpm, env, timeoutMs: 60_000 });
  tally.check('node quickstart.mjs runs under pnpm\'s strict layout and prints the same', ranPnpm.code === 0 && ranPnpm.stdout === ran.stdout, ranPnpm.stdout + ranPnpm.stderr);
} catch (error) {
  tally.fail('the newcomer test could not run to its end', error instanceof Error ? (error.stack ?? error.message) : String(error));
} finally {
  if (stub?.pid !== undefined && stub.exitCode === null) {
    const group = -stub.pid;
    const exited = new Promise((r) => stub!.once('exit', r));
    const signal = (s: NodeJS.Signals): void => {
      try {
        process.kill(group, s);
      } catch {
        // already gone
      }
    };
    signal('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
    signal('SIGKILL');
  }
  if (values.keep) console.log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
console.log(`(${seconds(started)})`);
tally.summary('newcomer');
process.exitCode = tally.failed > 0 ? 1 : 0;
