// usage: node m.mjs "<import stmt>" ; run from repo root
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
const [,, code, detail] = process.argv;
const r = await build({ stdin: { contents: code, resolveDir: process.cwd(), loader: 'js' }, bundle: true, minify: true, format: 'esm', platform: 'browser', target: 'es2022', legalComments: 'none', write: false, metafile: true, treeShaking: true,
  plugins: [{ name: 'x', setup(b) { b.onResolve({ filter: /.*/ }, (a) => a.kind === 'dynamic-import' ? { path: a.path, external: true } : undefined); } }] });
const out = r.outputFiles[0].contents;
console.log('min', out.length, 'gzip', gzipSync(out, { level: 9 }).length);
if (detail) { const ins = Object.values(r.metafile.outputs)[0].inputs; for (const [k, v] of Object.entries(ins).sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput)) if (v.bytesInOutput) console.log(String(v.bytesInOutput).padStart(6), k.replace(/.*packages\//, '')); }
