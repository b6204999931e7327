#!/usr/bin/env node
/**
 * `pnpm build:packages` (turbo's root task `//#build:packages`, which every package's `build` depends
 * on): the published packages built from clean, in one `tsc -b` over all their projects. One process
 * parses and binds TypeScript's libs and each package's declarations once for all of them; a `tsc -b` per
 * package (turbo's task per package) did it eight times, twice the CPU for the same output. Then the
 * validators' generated modules are copied and minified and its CLI bundled (its scripts/).
 * Plain Node: the build itself costs nothing but tsc's and esbuild's time.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
const PACKAGES = join(ROOT, 'packages');

/** Every package's projects: tsconfig.build.json, and the validators' CLI (tsconfig.cli.json). */
const projects = [];
for (const dir of readdirSync(PACKAGES).sort()) {
  const pkg = join(PACKAGES, dir);
  // From clean: a source removed since the last build leaves no stale module in dist/ to be packed.
  for (const out of ['dist', '.types', 'tsconfig.build.tsbuildinfo', 'tsconfig.cli.tsbuildinfo']) rmSync(join(pkg, out), { recursive: true, force: true });
  for (const config of ['tsconfig.build.json', 'tsconfig.cli.json']) if (existsSync(join(pkg, config))) projects.push(join(pkg, config));
}

const run = (args, cwd) => {
  const r = spawnSync(process.execPath, args, { cwd, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
// tsc -b orders the projects by their references.
run([createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-b', ...projects], ROOT);
const validators = join(PACKAGES, 'validators');
run(['scripts/copy-generated.mjs'], validators);
run(['scripts/bundle-cli.mjs'], validators);
