import { open, readdir, realpath, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { join, sep } from 'node:path';
import type { Har } from 'har-format';
import { fromCwd } from './paths.js';

/** One recorded exchange: the request that was made and the response body as JSON, if it is JSON. */
export type RecordedEntry = {
  /** Where it came from: `file` or `file#index`. */
  readonly source: string;
  readonly method: string;
  readonly url: string;
  readonly status: number;
  /**
   * The response headers that were recorded, by lowercase name (the first value of a name recorded
   * twice): a HAR entry's `response.headers`, an envelope's `response.headers` (an object of names and
   * values); empty when none were recorded.
   */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problem: string };
};

/** Headers as recorded (a HAR list of `{ name, value }`, or an object of names and values), by lowercase name. */
function headersOf(recorded: unknown): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  const add = (name: unknown, value: unknown) => {
    if (typeof name !== 'string' || typeof value !== 'string') return;
    const key = name.toLowerCase();
    if (!(key in out)) out[key] = value;
  };
  if (Array.isArray(recorded)) for (const h of recorded as { name?: unknown; value?: unknown }[]) add(h?.name, h?.value);
  else if (typeof recorded === 'object' && recorded !== null) for (const [name, value] of Object.entries(recorded)) add(name, value);
  return out;
}

/** A file or entry that could not be read as a recording, or a path not read; reported, never thrown. */
export type ReadProblem = { readonly source: string; readonly problem: string };

const RECORDING = /\.(har|json)$/i;

const errorCode = (err: unknown): string => (err as NodeJS.ErrnoException).code ?? String(err);

/** `path` is `root` or lies below it (both real paths). */
const inside = (root: string, path: string): boolean => path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);

/**
 * Expands files and directories (recursively, sorted) into recording files. A path named here is read
 * whatever it is and wherever a link in it leads. Below a named directory only `*.har` and `*.json`
 * regular files are read: a directory someone else wrote may hold links back up (a walk that never
 * ends), links out (to `/proc/self/environ`, to a home folder) or a named pipe (a read that never
 * ends). So each directory is read once (by device and inode), and a symbolic link whose target lies
 * outside the named directory, or a file that is not a regular one, is `skipped` with the reason.
 * A named directory under which no recording file is found is a problem (the run fails), not a pass.
 * Relative paths are read from `cwd` (default: the process's working directory); the paths returned
 * and named in problems are as given (see {@link fromCwd}).
 */
export async function listRecordings(
  paths: readonly string[],
  cwd?: string,
): Promise<{ files: string[]; problems: ReadProblem[]; skipped: ReadProblem[] }> {
  const at = (path: string): string => fromCwd(cwd, path);
  const files: string[] = [];
  const problems: ReadProblem[] = [];
  const skipped: ReadProblem[] = [];
  const walk = async (dir: string, root: string, given: string, seen: Set<string>): Promise<void> => {
    let names: string[];
    try {
      names = (await readdir(at(dir))).sort();
    } catch (err) {
      problems.push({ source: dir, problem: `cannot read: ${errorCode(err)}` });
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      let info: Stats;
      try {
        // The target's real path, not the link's: a link inside may lead out.
        const target = await realpath(at(path));
        if (!inside(root, target)) {
          skipped.push({ source: path, problem: `a symbolic link out of ${given}; not followed (name it on the command line to read it)` });
          continue;
        }
        info = await stat(target);
      } catch (err) {
        // A dangling link or a link cycle: worth an error only where a recording was meant.
        if (RECORDING.test(name)) problems.push({ source: path, problem: `cannot read: ${errorCode(err)}` });
        continue;
      }
      if (info.isDirectory()) {
        const id = `${info.dev}:${info.ino}`;
        if (seen.has(id)) {
          skipped.push({ source: path, problem: 'a directory already read (a symbolic link loop or a second link to it); not read again' });
          continue;
        }
        seen.add(id);
        await walk(path, root, given, seen);
      } else if (RECORDING.test(name)) {
        if (info.isFile()) files.push(path);
        else skipped.push({ source: path, problem: 'not a regular file (a pipe, socket or device); not read' });
      }
    }
  };
  for (const path of paths) {
    let info: Stats;
    let root: string;
    try {
      info = await stat(at(path));
      root = info.isDirectory() ? await realpath(at(path)) : path;
    } catch (err) {
      problems.push({ source: path, problem: `cannot read: ${errorCode(err)}` });
      continue;
    }
    if (info.isDirectory()) {
      const before = files.length;
      await walk(path, root, path, new Set([`${info.dev}:${info.ino}`]));
      // Nothing to check is not a pass: an empty directory is most often a recording that never got written.
      if (files.length === before) problems.push({ source: path, problem: `no recording (*.har or *.json) found in ${path}` });
    } else files.push(path);
  }
  return { files, problems, skipped };
}

/** A file over the size limit of {@link readRecording}. */
class TooLarge extends Error {}

/**
 * A file's text, read a chunk at a time and refused past `maxBytes` (so a file that grows, or one that
 * never ends, `/dev/zero` named on the command line, stops there too).
 */
async function readBounded(path: string, maxBytes: number): Promise<string> {
  const file = await open(path, 'r');
  try {
    // Sized from the file's own size where it has one (a regular file is read in one buffer, never copied).
    let buf = Buffer.allocUnsafe(Math.min(Math.max((await file.stat()).size, 65_536), maxBytes) + 1);
    let size = 0;
    for (;;) {
      if (size === buf.length) {
        const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, maxBytes + 1));
        buf.copy(bigger, 0, 0, size);
        buf = bigger;
      }
      const { bytesRead } = await file.read(buf, size, buf.length - size, null);
      if (bytesRead === 0) break;
      size += bytesRead;
      if (size > maxBytes) throw new TooLarge();
    }
    return buf.toString('utf8', 0, size);
  } finally {
    await file.close();
  }
}

/**
 * Reads one recording: a HAR 1.2 log (as browsers, proxies and Playwright write it), a plain envelope
 * `{ request: { method, url }, response: { status, headers?, body } }`, or an array of envelopes.
 * A relative `file` is read from `cwd` (default: the process's working directory) and named as given.
 * A file larger than `maxBytes` is not read (it would be parsed whole): a problem naming the limit.
 */
export async function readRecording(file: string, cwd?: string, maxBytes: number = Number.MAX_SAFE_INTEGER): Promise<{ entries: RecordedEntry[]; problems: ReadProblem[] }> {
  let json: unknown;
  try {
    json = JSON.parse(await readBounded(fromCwd(cwd, file), maxBytes));
  } catch (err) {
    if (err instanceof TooLarge) {
      return { entries: [], problems: [{ source: file, problem: `larger than ${maxBytes} bytes, the most x-validate reads of one recording (--max-file-bytes); not read` }] };
    }
    // Not the parser's message: it quotes the file's first characters, and a file that is not JSON
    // may be anything (a link to /proc/self/environ, named on the command line).
    const at = err instanceof SyntaxError ? /at position (\d+)/.exec(err.message) : null;
    const problem = err instanceof SyntaxError ? `not JSON${at ? ` (at position ${at[1]})` : ''}` : `cannot read: ${errorCode(err)}`;
    return { entries: [], problems: [{ source: file, problem }] };
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
    entries.push({ source, method: method.toUpperCase(), url, status, headers: headersOf(entry.response.headers), body });
  });
  return { entries, problems };
}

function fromEnvelope(source: string, json: unknown): RecordedEntry | ReadProblem {
  const e = json as { request?: { method?: unknown; url?: unknown }; response?: { status?: unknown; headers?: unknown; body?: unknown } } | null;
  const method = e?.request?.method;
  const url = e?.request?.url;
  const status = e?.response?.status;
  if (typeof method !== 'string' || typeof url !== 'string' || typeof status !== 'number') {
    return { source, problem: 'neither a HAR 1.2 log nor an envelope { request: { method, url }, response: { status, body } }' };
  }
  const body: RecordedEntry['body'] =
    e?.response && 'body' in e.response ? { ok: true, value: e.response.body } : { ok: false, problem: 'response.body is missing' };
  return { source, method: method.toUpperCase(), url, status, headers: headersOf(e?.response?.headers), body };
}

function parseJson(text: string): RecordedEntry['body'] {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, problem: `response body is not JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
}
