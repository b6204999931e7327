/**
 * Text from a recording or a server (file names, methods, URLs, messages, values) shown safely: a
 * recording is written by whoever answered, so its text may carry newlines that forge report lines,
 * escape sequences a terminal acts on, or characters a JUnit parser rejects.
 */

/**
 * What is never shown raw: C0 controls (tab and newline too: one value is one line), DEL, C1 controls
 * (U+009B is CSI to some terminals), the line and paragraph separators, the bidirectional controls that
 * reorder what a terminal shows (Trojan Source), the noncharacters U+FFFE/U+FFFF (not XML), and lone
 * surrogates. The backslash is left as it is, so Windows paths stay readable: a literal `\n` in a
 * value can look like an escaped newline, but it cannot start a line.
 */
const UNSAFE =
  // eslint-disable-next-line no-control-regex -- control characters are what it finds
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const SHORT: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

const escapeOne = (ch: string): string => {
  if (SHORT[ch]) return SHORT[ch];
  const code = ch.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
};

/** `text` with every unsafe character escaped (`\n`, `\x1b`, `\u2028`), at most `max` characters (then ending in `...`). */
export function printable(text: string, max: number): string {
  // Each character shows as at least one, so max + 1 of them tell whether the result is cut.
  const head = text.length > max + 1 ? text.slice(0, max + 1) : text;
  const escaped = head.replace(UNSAFE, escapeOne);
  if (escaped.length <= max && head.length === text.length) return escaped;
  let cut = max - 3;
  // Never end inside an escape (`\x1` of `\x1b`) or between the halves of a surrogate pair.
  const partial = /\\(x[0-9a-f]?|u[0-9a-f]{0,3})?$/.exec(escaped.slice(Math.max(0, cut - 5), cut));
  if (partial) cut -= partial[0].length;
  if (/[\ud800-\udbff]/.test(escaped.charAt(cut - 1))) cut--;
  return `${escaped.slice(0, cut)}...`;
}

/**
 * JSON text with the characters JSON.stringify leaves raw but a terminal or a reader acts on (DEL, C1,
 * U+2028/2029, bidi controls, noncharacters) as `\uXXXX` escapes: these occur only inside strings of
 * JSON text, where an escape parses back to the same string.
 */
export function safeJson(json: string): string {
  return json.replace(/[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufffe\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
