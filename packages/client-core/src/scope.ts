/**
 * Where a credential may go: under a base URL, by its path as a server may read it. The price key and
 * `x-validate record` both send a key only where {@link underBase} says, so the rule has one home.
 */

/**
 * A URL path as a server may read it, for comparing, not for sending: percent-escapes decoded (again
 * and again, for servers that decode twice), backslashes as slashes, dot segments resolved, and a slash
 * at the end (`/base/`, `/`). The URL parser already resolves `..` and `%2e%2e`, but leaves `..%2f`
 * alone, which a server that decodes `%2f` first reads as `../`. Escapes are decoded byte by byte
 * (`unescape`, which never throws, and reads `%u002f` as IIS does): `/`, `\` and `.` are one byte each,
 * so the segments are a server's whatever it makes of the other bytes.
 */
function comparablePath(pathname: string): string {
  let path = pathname;
  for (let i = 0; i < 4; i++) path = unescape(path);
  const out: string[] = [];
  for (const segment of path.split(/[/\\]/)) {
    if (segment === '..') out.pop();
    else if (segment !== '.' && segment) out.push(segment);
  }
  return ['', ...out, ''].join('/');
}

/**
 * Whether `url` lies under `base`: the same origin, and a path at or below the base's path, compared
 * as a server may read them (`/base/..%2fother` is not under `/base/`).
 *
 * @example
 * ```ts
 * underBase('https://p.example/v1/history', 'https://p.example/v1'); // true
 * underBase('https://p.example/v1/..%2fadmin', 'https://p.example/v1/'); // false
 * ```
 * @internal
 */
export function underBase(url: string, base: string): boolean {
  return scopeOf(base)(url);
}

/**
 * {@link underBase} for one base read once: the test a client runs on every request it may key.
 *
 * @example
 * ```ts
 * const keyed = scopeOf('https://p.example/v1');
 * keyed('https://p.example/v1/history'); // true
 * ```
 * @internal
 */
export function scopeOf(base: string): (url: string) => boolean {
  const b = parse(base);
  const root = b && comparablePath(b.pathname);
  return (url) => {
    const u = parse(url);
    return !!u && u.origin === b?.origin && comparablePath(u.pathname).startsWith(root!);
  };
}

/** A URL, or undefined for text that is none (not URL.canParse: Safari before 17 has none). */
function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}
