/**
 * `pnpm api-report`: the public surface of every published package, one committed report per entry
 * point (`packages/<dir>/api/<entry>.api.md`), written by API Extractor from the built declaration files.
 *
 *   pnpm api-report            # check: exit 1 and name the entries whose surface changed without its report
 *   pnpm api-report --write    # rewrite the reports after an intended change; review and commit them
 *
 * Builds nothing: run `pnpm build` first (`pnpm check` does). A change of a public name, type or
 * signature then shows in review as a diff of the report, and CI fails when the report was not updated.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Extractor, ExtractorConfig, ExtractorLogLevel, type ExtractorMessage } from '@microsoft/api-extractor';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const { values } = parseArgs({ options: { write: { type: 'boolean' } } });

type Exports = Record<string, string | { types?: string } | undefined>;

/** Every entry point of a package with its declaration file, from the `types` of its `exports`. */
function entries(dir: string): { name: string; dts: string }[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'packages', dir, 'package.json'), 'utf8')) as { private?: boolean; exports?: Exports };
  if (pkg.private) return [];
  return Object.entries(pkg.exports ?? {}).flatMap(([subpath, target]) => {
    const types = typeof target === 'object' ? target?.types : undefined;
    if (types === undefined || subpath === './package.json') return [];
    return [{ name: subpath === '.' ? 'index' : subpath.slice(2), dts: join(ROOT, 'packages', dir, types) }];
  });
}

// API Extractor's advice on release tags and TSDoc style is not what this report is for: the report is.
const QUIET = ['ae-undocumented', 'ae-missing-release-tag', 'ae-forgotten-export', 'ae-internal-missing-underscore', 'ae-unresolved-link', 'ae-different-release-tags', 'ae-incompatible-release-tags'];

const temp = mkdtempSync(join(tmpdir(), 'api-report-'));
const changed: string[] = [];
let failed = false;
try {
  for (const dir of readdirSync(join(ROOT, 'packages')).sort()) {
    for (const { name, dts } of entries(dir)) {
      const label = `@x/${dir}${name === 'index' ? '' : `/${name}`}`;
      if (!existsSync(dts)) {
        console.error(`api-report: ${label}: ${dts} is missing; run \`pnpm build\` first`);
        failed = true;
        continue;
      }
      const reportFolder = join(ROOT, 'packages', dir, 'api');
      mkdirSync(reportFolder, { recursive: true });
      const config = ExtractorConfig.prepare({
        configObject: {
          projectFolder: join(ROOT, 'packages', dir),
          mainEntryPointFilePath: dts,
          compiler: {
            overrideTsconfig: {
              compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022', 'dom'], types: [], skipLibCheck: true, strict: true },
              files: [dts],
            },
          },
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
        packageJsonFullPath: join(ROOT, 'packages', dir, 'package.json'),
      });
      const warnings: string[] = [];
      const result = Extractor.invoke(config, {
        localBuild: values.write === true,
        messageCallback: (message: ExtractorMessage) => {
          // A missing or changed report is what `changed` reports; anything else is a problem of the surface.
          const aboutTheReport = message.messageId === 'console-api-report-created' || message.messageId === 'console-api-report-changed' || message.messageId === 'console-api-report-missing' || message.messageId === 'console-api-report-not-copied' || message.messageId === 'console-api-report-copied';
          if (!aboutTheReport && (message.logLevel === ExtractorLogLevel.Warning || message.logLevel === ExtractorLogLevel.Error)) warnings.push(`${message.messageId}: ${message.text}`);
          message.handled = true;
        },
      });
      if (result.apiReportChanged || !existsSync(join(reportFolder, `${name}.api.md`))) changed.push(`packages/${dir}/api/${name}.api.md (${label})`);
      if (warnings.length > 0) {
        console.error(`api-report: ${label}:\n  ${warnings.join('\n  ')}`);
        failed = true;
      }
    }
  }
} finally {
  rmSync(temp, { recursive: true, force: true });
}

if (changed.length > 0 && !values.write) {
  console.error(`api-report: the public surface changed without its report; run \`pnpm api-report --write\`, review and commit:\n  ${changed.join('\n  ')}`);
  failed = true;
} else if (changed.length > 0) {
  console.log(`api-report: rewrote\n  ${changed.join('\n  ')}`);
} else {
  console.log('api-report: every public surface matches its committed report');
}
process.exit(failed ? 1 : 0);
