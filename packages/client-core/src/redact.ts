/** What stands in for a secret wherever one is removed (URLs, error texts, bodies). */
export const REDACTED = '[REDACTED]';

/**
 * `text` with every occurrence of each of `secrets` (a key the client was given) replaced by
 * `[REDACTED]`, in one pass per secret; an empty secret is skipped. The one home of this rule for the
 * clients' errors and `x-validate`'s recordings and reports.
 *
 * @example
 * ```ts
 * redactText('bad key sk-123', 'sk-123'); // 'bad key [REDACTED]'
 * ```
 */
export function redactText(text: string, secrets: string | readonly string[]): string {
  let out = text;
  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) {
    if (secret !== '' && out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out;
}

/** Names of query parameters and headers whose values are never shown in errors or hooks. */
const SECRET_NAME = /key|token|secret|signature|password|auth|cookie/i;

/**
 * Response headers as `HttpError.headers` shows them: names lowercased, the value of every header named
 * like a secret (`set-cookie`, `authorization`, `x-api-key`, `*token*`, ..., the names whose query values
 * `redactUrl` hides) replaced by `[REDACTED]`.
 *
 * @example
 * ```ts
 * redactHeaders(new Headers({ 'Retry-After': '2', 'Set-Cookie': 's=1' })); // { 'retry-after': '2', 'set-cookie': '[REDACTED]' }
 * ```
 */
export function redactHeaders(headers?: HeaderSource): Record<string, string> {
  const shown: Record<string, string> = {};
  const add = (value: string, name: string): void => {
    const key = name.toLowerCase();
    shown[key] = SECRET_NAME.test(key) ? REDACTED : value;
  };
  if (typeof headers?.forEach === 'function') (headers as HeaderList).forEach(add);
  else for (const [name, value] of Object.entries(headers ?? {})) add(value as string, name);
  return shown;
}

/** Something with a `Headers`-like `forEach` (a `Headers`), or a plain record of header names to values. */
type HeaderList = { forEach(callback: (value: string, name: string) => void): void };
/**
 * Headers as `HttpError` and `redactHeaders` take them: typed without the DOM's `HeadersInit`, so that
 * the declarations compile for a consumer whose `lib` has no DOM (Node-only TypeScript).
 */
export type HeaderSource = HeaderList | Readonly<Record<string, string>>;

/**
 * The URL as errors show it: no userinfo, secret-looking query values replaced by `[REDACTED]`. Read as
 * text, one pass each (it also runs on URLs a server wrote into its messages): what is not a URL keeps
 * its form.
 *
 * @example
 * ```ts
 * redactUrl('https://u:p@host/a?api_key=abc&count=2'); // 'https://host/a?api_key=[REDACTED]&count=2'
 * ```
 */
export function redactUrl(url: string): string {
  return url
    // The userinfo up to its last `@` (a password may hold one), after `//` or the `\\` a URL parser also takes.
    .replace(/^([^/?#\\]*[/\\]{2})[^/?#\\]*@/, '$1')
    // Each `name=value` of the query once (a name never runs over a `?`, so a run of them stays linear),
    // the name read with its escapes undone (`%6Bey` is `key`).
    .replace(/([?&][^=&#?]*=)[^&#]*/g, (pair, name: string) => (SECRET_NAME.test(unescape(name)) ? name + REDACTED : pair));
}
