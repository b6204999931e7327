import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Har } from 'har-format';

/** One recorded exchange: the request that was made and the response body as JSON, if it is JSON. */
export type RecordedEntry = {
  /** Where it came from: `file` or `file#index`. */
  readonly source: string;
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly body: { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problem: string };
};

/** A file or entry that could not be read as a recording; reported, never thrown. */
export type ReadProblem = { readonly source: string; readonly problem: string };

const RECORDING = /\.(har|json)$/i;

/** Expands files and directories (recursively, sorted) into recording files. */
export async function listRecordings(paths: readonly string[]): Promise<{ files: string[]; problems: ReadProblem[] }> {
  const files: string[] = [];
  const problems: ReadProblem[] = [];
  const visit = async (path: string, explicit: boolean): Promise<void> => {
    let info;
    try {
      info = await stat(path);
    } catch (err) {
      problems.push({ source: path, problem: `cannot read: ${(err as NodeJS.ErrnoException).code ?? String(err)}` });
      return;
    }
    if (info.isDirectory()) {
      const names = (await readdir(path)).sort();
      for (const name of names) await visit(join(path, name), false);
    } else if (explicit || RECORDING.test(path)) {
      files.push(path);
    }
  };
  for (const path of paths) await visit(path, true);
  return { files, problems };
}

/**
 * Reads one recording: a HAR 1.2 log (as browsers, proxies and Playwright write it), a plain envelope
 * `{ request: { method, url }, response: { status, body } }`, or an array of envelopes.
 */
export async function readRecording(file: string): Promise<{ entries: RecordedEntry[]; problems: ReadProblem[] }> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    return { entries: [], problems: [{ source: file, problem: `not JSON: ${err instanceof Error ? err.message : String(err)}` }] };
  }
  if (isHar(json)) return fromHar(file, json);
  if (Array.isArray(json)) {
    const out = { entries: [] as RecordedEntry[], problems: [] as ReadProblem[] };
    json.forEach((item, i) => {
      const r = fromEnvelope(`${file}#${i}`, item);
      if ('problem' in r) out.problems.push(r);
      else out.entries.push(r);
    });
    return out;
  }
  const r = fromEnvelope(file, json);
  return 'problem' in r ? { entries: [], problems: [r] } : { entries: [r], problems: [] };
}

function isHar(json: unknown): json is Har {
  const log = (json as { log?: { entries?: unknown } } | null)?.log;
  return typeof log === 'object' && log !== null && Array.isArray(log.entries);
}

function fromHar(file: string, har: Har): { entries: RecordedEntry[]; problems: ReadProblem[] } {
  const entries: RecordedEntry[] = [];
  const problems: ReadProblem[] = [];
  har.log.entries.forEach((entry, i) => {
    const source = `${file}#${i}`;
    const method = entry?.request?.method;
    const url = entry?.request?.url;
    const status = entry?.response?.status;
    if (typeof method !== 'string' || typeof url !== 'string' || typeof status !== 'number') {
      problems.push({ source, problem: 'HAR entry lacks request.method, request.url or response.status' });
      return;
    }
    const content = entry.response.content;
    let body: RecordedEntry['body'];
    if (!content || typeof content.text !== 'string') {
      body = { ok: false, problem: 'the response body was not recorded (content.text missing)' };
    } else {
      const text = content.encoding === 'base64' ? Buffer.from(content.text, 'base64').toString('utf8') : content.text;
      body = parseJson(text);
    }
    entries.push({ source, method: method.toUpperCase(), url, status, body });
  });
  return { entries, problems };
}

function fromEnvelope(source: string, json: unknown): RecordedEntry | ReadProblem {
  const e = json as { request?: { method?: unknown; url?: unknown }; response?: { status?: unknown; body?: unknown } } | null;
  const method = e?.request?.method;
  const url = e?.request?.url;
  const status = e?.response?.status;
  if (typeof method !== 'string' || typeof url !== 'string' || typeof status !== 'number') {
    return { source, problem: 'neither a HAR 1.2 log nor an envelope { request: { method, url }, response: { status, body } }' };
  }
  const body: RecordedEntry['body'] =
    e?.response && 'body' in e.response ? { ok: true, value: e.response.body } : { ok: false, problem: 'response.body is missing' };
  return { source, method: method.toUpperCase(), url, status, body };
}

function parseJson(text: string): RecordedEntry['body'] {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, problem: `response body is not JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
}
