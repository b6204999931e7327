
/** A parameter in a path template: `{address}`. */
const PATH_PARAM = /\{([^{}]+)\}/g;

/**
 * The URL of one request: `baseUrl` + the operation's path template, each `{name}` replaced by its path
 * parameter through `encodeURIComponent`, then the query parameters as `?name=value&...` (form style,
 * `encodeURIComponent` too) in the order given, an undefined or null value left out (no `?` when none
 * is left). The parameters are checked primitives already (their generated `check`): strings, numbers, booleans.
 * That is OpenAPI's default serialization for such parameters (path: `simple`; query: `form`, exploded).
 *
 * A template parameter without a value stays as it is (`{name}`); the transport's checks never let a
 * required one through.
 *
 * @example
 * ```ts
 * requestUrl('http://localhost:27000', '/rpc/v2/accounts/{address}/resources', { address: '0x1' }, { count: 10, start: undefined });
 * // 'http://localhost:27000/rpc/v2/accounts/0x1/resources?count=10'
 * ```
 */
export function requestUrl(
  baseUrl: string,
  template: string,
  path: Readonly<Record<string, unknown>> | undefined,
  query: Readonly<Record<string, unknown>> | undefined,
): string {
  let url = baseUrl + (path === undefined ? template : template.replace(PATH_PARAM, (match, name: string) => {
    const value = path[name];
    return value === undefined || value === null ? match : encodeURIComponent(value as string | number | boolean);
  }));
  if (query !== undefined) {
    let separator = '?';
    for (const name in query) {
      const value = query[name];
      if (value === undefined || value === null) continue;
      url += `${separator}${encodeURIComponent(name)}=${encodeURIComponent(value as string | number | boolean)}`;
      separator = '&';
    }
  }
  return url;
}
