/**
 * `pnpm api-report`: the public surface of every published package, one committed report per entry
 * point (`packages/<dir>/api/<entry>.api.md`), written by API Extractor from the built declaration files.
 *
 *   pnpm api-report            # check: exit 1 and name the entries whose surface changed without its report
 *   pnpm api-report --write    # rewrite the reports after an intended change; review and commit them
 *
 * Builds nothing: run `pnpm build` first. `pnpm gen --write` and `pnpm gen --check` build the packages and
 * run it after the generated code (so a spec change rewrites the reports of what it generated; `pnpm check`
 * checks them there). A change of a public name, type or signature then shows in review as a diff of the
 * report, and CI fails when the report was not updated.
 */
import { parseArgs } from 'node:util';
import { apiReport } from './report.ts';

const { values } = parseArgs({ options: { write: { type: 'boolean' } } });
process.exit(apiReport({ write: values.write === true }));
