/** What stands in for a secret wherever one is removed (URLs, error texts, bodies). */
export const REDACTED = '[REDACTED]';

/** Query parameter names whose values are never shown in errors or hooks. */
const SECRET_PARAM = /key|token|secret|signature|password|auth/i;

/**
 * The URL as errors show it: no userinfo, secret-looking query values replaced by `[REDACTED]`.
 *
 * @example
 * ```ts
 * redactUrl('https://u:p@host/a?api_key=abc&count=2'); // 'https://host/a?api_key=[REDACTED]&count=2'
 * ```
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.replace(/\?.*$/, `?${REDACTED}`);
  }
  parsed.username = '';
  parsed.password = '';
  for (const name of new Set(parsed.searchParams.keys())) {
    if (SECRET_PARAM.test(name)) parsed.searchParams.set(name, REDACTED);
  }
  return parsed.toString().replaceAll(encodeURIComponent(REDACTED), REDACTED);
}
