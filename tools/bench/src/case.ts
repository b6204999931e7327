/**
 * The child process of one benchmark (forked by main.ts). Protocol (IPC): the parent sends one
 * `CaseRequest`; the child answers with one `CaseResult` and exits.
 */
import { CASES, type CaseContext } from './cases.ts';
import type { Row } from './report.ts';

export type CaseRequest = { id: string; context: CaseContext };
export type CaseResult = { ok: true; rows: Row[] } | { ok: false; error: string };

async function run(request: CaseRequest): Promise<Row[]> {
  const c = CASES.find((x) => x.id === request.id);
  if (!c) throw new Error(`unknown benchmark ${request.id}`);
  return c.run(request.context);
}

if (process.send && process.argv[2] === '--case') {
  process.once('message', (request: CaseRequest) => {
    run(request).then(
      (rows): CaseResult => ({ ok: true, rows }),
      (err: unknown): CaseResult => ({ ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
    ).then((result) => process.send!(result, () => process.exit(0)));
  });
}
