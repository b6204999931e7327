/**
 * The API reports of the published packages, one committed report per entry point
 * (`packages/<dir>/api/<entry>.api.md`), written by API Extractor from the built declaration files:
 * `pnpm api-report` (main.ts) and `pnpm gen --write` / `--check` (which build the packages first) run it.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CompilerState, Extractor, ExtractorConfig, ExtractorLogLevel, type ExtractorMessage } from '@microsoft/api-extractor';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

type Exports = Record<string, string | { types?: string } | undefined>;

/** Every entry point of a package with its declaration file, from the `types` of its `exports`. */
function entries(root: string, dir: string): { name: string; dts: string }[] {
  const pkg = JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')) as { private?: boolean; exports?: Exports };
  if (pkg.private) return [];
  return Object.entries(pkg.exports ?? {}).flatMap(([subpath, target]) => {
    const types = typeof target === 'object' ? target?.types : undefined;
    if (types === undefined || subpath === './package.json') return [];
    return [{ name: subpath === '.' ? 'index' : subpath.slice(2), dts: join(root, 'packages', dir, types) }];
  });
}

// API Extractor's advice on release tags and TSDoc style is not what this report is for: the report is.
/** The same for every entry point, so that one program can serve them all. */
const COMPILER_OPTIONS = { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022', 'dom'], types: [], skipLibCheck: true, strict: true };

const QUIET = ['ae-undocumented', 'ae-missing-release-tag', 'ae-forgotten-export', 'ae-internal-missing-underscore', 'ae-unresolved-link', 'ae-different-release-tags', 'ae-incompatible-release-tags'];

/**
 * Checks (or, with `write`, rewrites) the API report of every entry point of every published package.
 *
 * @returns 0, or 1 when a surface changed without its report (check) or API Extractor warned.
 * @example
 * ```ts
 * const code = apiReport({ write: false }); // what `pnpm api-report` runs
 * ```
 */
export function apiReport({ write = false, root = ROOT, out = console }: { write?: boolean; root?: string; out?: Pick<Console, 'log' | 'error'> } = {}): number {
  const temp = mkdtempSync(join(tmpdir(), 'api-report-'));
  const changed: string[] = [];
  let failed = false;
  try {
    const reports: { dir: string; label: string; name: string; reportFolder: string; config: ExtractorConfig }[] = [];
    for (const dir of readdirSync(join(root, 'packages')).sort()) {
      for (const { name, dts } of entries(root, dir)) {
        const label = `@x/${dir}${name === 'index' ? '' : `/${name}`}`;
        if (!existsSync(dts)) {
          out.error(`api-report: ${label}: ${dts} is missing; run \`pnpm build\` first`);
          failed = true;
          continue;
        }
        const reportFolder = join(root, 'packages', dir, 'api');
        mkdirSync(reportFolder, { recursive: true });
        const config = ExtractorConfig.prepare({
          configObject: {
            projectFolder: join(root, 'packages', dir),
            mainEntryPointFilePath: dts,
            compiler: { overrideTsconfig: { compilerOptions: COMPILER_OPTIONS, files: [dts] } },
            apiReport: { enabled: true, reportFolder, reportTempFolder: temp, reportFileName: `${name}.api.md` },
            docModel: { enabled: false },
            dtsRollup: { enabled: false },
            tsdocMetadata: { enabled: false },
            messages: {
              extractorMessageReporting: { default: { logLevel: ExtractorLogLevel.Warning }, ...Object.fromEntries(QUIET.map((id) => [id, { logLevel: ExtractorLogLevel.None }])) },
              tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
              compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Warning } },
            },
          },
          configObjectFullPath: undefined,
          packageJsonFullPath: join(root, 'packages', dir, 'package.json'),
        });
        reports.push({ dir, label, name, reportFolder, config });
      }
    }
    // One TypeScript program for every entry point (API Extractor's CompilerState): each invocation
    // would otherwise parse the same declarations and libs again (14 programs, 2.5 times the CPU).
    const compilerState = reports.length > 0 ? CompilerState.create(reports[0]!.config, { additionalEntryPoints: reports.map((r) => r.config.mainEntryPointFilePath) }) : undefined;
    for (const { dir, label, name, reportFolder, config } of reports) {
      const warnings: string[] = [];
      const result = Extractor.invoke(config, {
        localBuild: write,
        compilerState,
        messageCallback: (message: ExtractorMessage) => {
          // A missing or changed report is what `changed` reports; anything else is a problem of the surface.
          const aboutTheReport = message.messageId === 'console-api-report-created' || message.messageId === 'console-api-report-changed' || message.messageId === 'console-api-report-missing' || message.messageId === 'console-api-report-not-copied' || message.messageId === 'console-api-report-copied';
          if (!aboutTheReport && (message.logLevel === ExtractorLogLevel.Warning || message.logLevel === ExtractorLogLevel.Error)) warnings.push(`${message.messageId}: ${message.text}`);
          message.handled = true;
        },
      });
      if (result.apiReportChanged || !existsSync(join(reportFolder, `${name}.api.md`))) changed.push(`packages/${dir}/api/${name}.api.md (${label})`);
      if (warnings.length > 0) {
        out.error(`api-report: ${label}:\n  ${warnings.join('\n  ')}`);
        failed = true;
      }
    }
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }

  if (changed.length > 0 && !write) {
    out.error(`api-report: the public surface changed without its report; run \`pnpm gen --write\` (or \`pnpm api-report --write\`), review and commit:\n  ${changed.join('\n  ')}`);
    failed = true;
  } else if (changed.length > 0) {
    out.log(`api-report: rewrote\n  ${changed.join('\n  ')}`);
  } else {
    out.log('api-report: every public surface matches its committed report');
  }
  return failed ? 1 : 0;
}
