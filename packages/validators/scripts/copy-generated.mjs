// Copies the generated plain-JS modules (ajv's compiled code) and their declarations next to what tsc
// emitted (tsc compiles the .ts sources only), and minifies every generated module of dist/: the
// committed files stay indented for review, but indentation, comments and ajv's long local names were
// half of the published package, and Node reads all of it on import (the TSDoc is in the .d.ts files).
// Whitespace everywhere, local names in ajv.js only (the other modules' pure calls are found again by the
// names they call, below). Not esbuild's syntax minification: it made an app's bundle of one validator
// 0.1 kB larger once gzipped (`import { validateTransactionOutput }`, measured as `pnpm size` does).
import { copyFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const from = join(pkg, 'src', 'generated');
const to = join(pkg, 'dist', 'generated');

/**
 * esbuild drops `/* @__PURE__ *\/` when it minifies, and an app's bundler needs them to drop the top-level
 * regular expressions, helpers and Standard Schemas it does not use. Each is put back before every call of
 * the function it marked (`new RegExp(`, `createStandard(`, ...; names are kept), and they are counted: as
 * many after as before, or the build fails.
 */
const PURE = /\/\*\s*[@#]__PURE__\s*\*\/\s*((?:new\s+)?[\w$]+\(|\(\(\)\s*=>\s*[\w$]+\()/g;
const pureCount = (s) => (s.match(/[@#]__PURE__/g) ?? []).length;
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function minify(code, name) {
  const header = code.startsWith('// This file is generated') ? code.slice(0, code.indexOf('\n') + 1) : '';
  const minifyIdentifiers = name === 'ajv.js';
  let out = transformSync(code, { format: 'esm', target: 'es2020', minifyWhitespace: true, minifyIdentifiers, legalComments: 'none', charset: 'utf8' }).code;
  const forms = new Set([...code.matchAll(PURE)].map((m) => m[1].replace(/\s+/g, ' ').replace(/ *\( *\) *=> */, '()=>')));
  for (const form of forms) out = out.replace(new RegExp(`(?<![\\w$.])${escape(form)}`, 'g'), (m) => `/* @__PURE__ */${m}`);
  if (pureCount(out) !== pureCount(code)) throw new Error(`copy-generated: ${name} has ${pureCount(code)} pure annotations, ${pureCount(out)} once minified`);
  return header + out;
}

mkdirSync(to, { recursive: true });
for (const name of readdirSync(from).sort()) {
  if (name.endsWith('.js') || name.endsWith('.d.ts')) copyFileSync(join(from, name), join(to, name));
}
for (const name of readdirSync(to).sort()) {
  if (name.endsWith('.js')) writeFileSync(join(to, name), minify(readFileSync(join(to, name), 'utf8'), name));
}
