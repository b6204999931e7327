import { isAbsolute, sep } from 'node:path';

/**
 * Where a path given to the command is, for a working directory that need not be the process's (a test
 * runs the command in-process, from a folder of its own). What the command shows of a path is always
 * the path as given; only the file system is asked for this one.
 *
 * Without `cwd` the path is the process's to resolve, as given. Otherwise a relative path is put after
 * `cwd` as text, as the system does, rather than with `path.join`, which would also fold `a/..` away
 * while the system follows `a` first when it is a symbolic link. An empty path stays empty (no file),
 * not `cwd` itself.
 *
 * @example
 * ```ts
 * await readFile(fromCwd('/tmp/run', 'answers.json'), 'utf8'); // reads /tmp/run/answers.json
 * ```
 */
export function fromCwd(cwd: string | undefined, path: string): string {
  if (cwd === undefined || path === '' || isAbsolute(path)) return path;
  return cwd.endsWith(sep) ? `${cwd}${path}` : `${cwd}${sep}${path}`;
}
