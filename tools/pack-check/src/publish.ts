/**
 * `pnpm release:dry-run`: each tarball the other checks test goes through `npm publish --dry-run`, the
 * publish of a release (`changeset publish`) without the upload: the manifest as published, its
 * `publishConfig` (public access), the name, version and tag npm would publish.
 */
import { type Packed, type Tally, ROOT, run } from './shared.ts';

/** Dry-runs the publish of every tarball, all at once (npm only reads them). */
export async function publishDryRun(packed: readonly Packed[], tally: Tally): Promise<void> {
  const results = await Promise.all(packed.map((p) => run('npm', ['publish', p.tarball, '--dry-run', '--no-fund', '--no-audit'], { cwd: ROOT })));
  packed.forEach((p, i) => {
    const r = results[i]!;
    const out = r.stdout + r.stderr;
    const line = out.split('\n').find((l) => l.startsWith('npm notice Publishing to')) ?? '';
    tally.check(`${p.pkg.name}@${p.pkg.version}: ${line.replace(/^npm notice /, '') || 'npm publish --dry-run'}`, r.code === 0 && out.includes(`+ ${p.pkg.name}@${p.pkg.version}`), out);
  });
}
