import { build } from 'esbuild';
const [,, code] = process.argv;
const r = await build({ stdin: { contents: code, resolveDir: process.cwd(), loader: 'js' }, bundle: true, minify: false, minifySyntax: true, format: 'esm', platform: 'browser', target: 'es2022', legalComments: 'none', write: false, treeShaking: true, plugins: [{ name: 'x', setup(b) { b.onResolve({ filter: /.*/ }, (a) => a.kind === 'dynamic-import' ? { path: a.path, external: true } : undefined); } }] });
process.stdout.write(r.outputFiles[0].text);
