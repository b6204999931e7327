import { parseArgs } from 'node:util';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// The generator (openapi-typescript, ajv, esbuild) loads only when it runs: the default path just
// hands over to turbo, which answers from its cache when nothing changed.
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const USAGE = `Usage: pnpm gen [--check | --write]
  (no flag)  regenerate through turbo, which skips the work when specs and generator are unchanged
  --write    regenerate now, without turbo's cache
  --check    exit 1 and name the stale files when packages/*/src/generated is out of date`;

const { values } = parseArgs({
  options: { check: { type: 'boolean' }, write: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
});

if (values.help) {
  console.log(USAGE);
} else if (values.check) {
  const [{ generate }, { staleFiles }] = await Promise.all([import('./generate.ts'), import('./files.ts')]);
  const stale = staleFiles(ROOT, await generate());
  if (stale.length > 0) {
    console.error(`Generated code is stale; run \`pnpm gen\` and commit the result:\n  ${stale.join('\n  ')}`);
    process.exit(1);
  }
  console.log('Generated code is up to date.');
} else if (values.write) {
  const [{ generate }, { writeFiles }] = await Promise.all([import('./generate.ts'), import('./files.ts')]);
  const changed = writeFiles(ROOT, await generate());
  console.log(changed.length ? `Wrote:\n  ${changed.join('\n  ')}` : 'Generated code was already up to date.');
} else {
  const r = spawnSync('turbo', ['run', 'gen:write', '--output-logs=new-only'], { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' });
  process.exit(r.status ?? 1);
}
