// Bundles the x-validate CLI (src/cli) into one file, dist/cli/main.js, with the helpers it takes from
// @x/client-core (REDACTED, redactUrl, the paging interpreter readPage/advances) inlined: @x/client-core
// is a devDependency, so `npm install @x/validators` pulls none of it. The package's own dependencies
// (@x/common: the route and paging tables) stay imports, installed with it. The CLI's imports of the package's
// own modules (`../index.js`, `../generated/*.js`) stay imports of the files tsc emitted beside it, so
// the compiled validators are not shipped twice. Runs after tsc, which also emitted src/cli: its
// per-module output is replaced by the bundle.
import { rmSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const cliSrc = join(pkg, 'src', 'cli');
const outDir = join(pkg, 'dist', 'cli');
const out = join(outDir, 'main.js');
const dependencies = Object.keys(JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).dependencies ?? {});

/** `../x.js` from a CLI module: a module of the package itself, loaded from dist/ at run time. */
const packageModules = {
  name: 'package-modules-external',
  setup(b) {
    b.onResolve({ filter: /^\.\.\// }, (args) => {
      // A module of another package (client-core's subfolders) is bundled as esbuild resolves it.
      if (relative(pkg, args.resolveDir).startsWith('..')) return undefined;
      if (relative(cliSrc, args.resolveDir) !== '') throw new Error(`bundle-cli: unexpected import ${args.path} from ${args.importer}`);
      return { path: args.path, external: true };
    });
  },
};

rmSync(outDir, { recursive: true, force: true });
const result = await build({
  entryPoints: [join(cliSrc, 'main.ts')],
  outfile: out,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Resolve @x/client-core to its built ES module (its package.json exports), as a user's bundler would.
  conditions: ['import', 'default'],
  // Not tsconfig.json: its paths map @x/* to the workspace sources.
  tsconfig: join(pkg, 'tsconfig.build.json'),
  plugins: [packageModules],
  external: dependencies,
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
});

// The bundle imports Node built-ins, the package's own modules and its dependencies only: no devDependency.
const code = readFileSync(out, 'utf8');
const imports = [...code.matchAll(/^\s*import\s[^'"]*['"]([^'"]+)['"]/gm), ...code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]);
const foreign = imports.filter((s) => !s.startsWith('node:') && !s.startsWith('../') && !dependencies.includes(s));
if (foreign.length) throw new Error(`bundle-cli: dist/cli/main.js imports ${foreign.join(', ')}; it may import only node: built-ins, ../ modules and ${dependencies.join(', ')}`);
const output = Object.values(result.metafile.outputs)[0];
const inlined = Object.entries(output.inputs)
  .filter(([f, v]) => !f.startsWith('src/') && v.bytesInOutput > 0)
  .map(([f, v]) => `${f.replace(/^.*?(packages|node_modules)\//, '')} ${v.bytesInOutput} B`);
console.log(`bundle-cli: dist/cli/main.js (${code.length} bytes); inlined: ${inlined.join(', ') || 'nothing'}; imports: ${[...new Set(imports)].join(', ')}`);
