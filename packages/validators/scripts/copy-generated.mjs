// Copies the generated plain-JS modules (ajv's compiled code) and their declarations next to what tsc
// emitted: tsc compiles the .ts sources only.
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const from = join(pkg, 'src', 'generated');
const to = join(pkg, 'dist', 'generated');
mkdirSync(to, { recursive: true });
for (const name of readdirSync(from).sort()) {
  if (name.endsWith('.js') || name.endsWith('.d.ts')) copyFileSync(join(from, name), join(to, name));
}
