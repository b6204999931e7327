/**
 * Where a credential may go: under a base URL, by its path as a server may read it. The price key and
 * `x-validate record` both send a key only where {@link underBase} says, so the rule has one home.
 */

/**
 * A URL path as a server may read it, for comparing, not for sending: percent-escapes decoded (again
 * and again, for servers that decode twice), backslashes as slashes, dot segments resolved. The URL
 * parser already resolves `..` and `%2e%2e`, but leaves `..%2f` alone, which a server that decodes
 * `%2f` first reads as `../`.
 */
function comparablePath(pathname: string): string {
  let path = pathname;
  for (let i = 0; i < 4; i++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      // A lone `%`: decode what can be decoded, one escape at a time.
      decoded = path.replace(/%[0-9a-f]{2}/gi, (e) => String.fromCharCode(parseInt(e.slice(1), 16)));
    }
    if (decoded === path) break;
    path = decoded;
  }
  const out: string[] = [];
  for (const segment of path.replace(/\\/g, '/').split('/')) {
    if (segment === '..') out.pop();
    else if (segment !== '.' && segment !== '') out.push(segment);
  }
  return `/${out.join('/')}`;
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
  let b: URL;
  try {
    b = new URL(base);
  } catch {
    return () => false;
  }
  const root = comparablePath(b.pathname);
  return (url) => {
    let u: URL;
    try {
      // Not URL.canParse: Safari before 17 has none.
      u = new URL(url);
    } catch {
      return false;
    }
    if (u.origin !== b.origin) return false;
    const path = comparablePath(u.pathname);
    return root === '/' || path === root || path.startsWith(`${root}/`);
  };
}
