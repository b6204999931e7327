import { REDACTED, redactText } from '@x/client-core';

/** Longest value text an issue shows (characters of JSON). */
export const VALUE_PREVIEW_LENGTH = 80;

/**
 * Property names whose values are secrets: API keys, tokens, passwords. Not `auth...`: the node's
 * `authentication_key` and `authenticator` are public chain data.
 */
const SECRET_KEY = /^(x-)?api[-_]?key$|token|secret|password|passphrase|authorization|private[-_]?key|signature/i;

/** A value's JSON text, at most `limit` characters (then ending in `...`), with secrets replaced by `[REDACTED]`. */
export function preview(value: unknown, secrets: readonly string[] = [], limit = VALUE_PREVIEW_LENGTH): string {
  let out = '';
  const full = {};
  const emit = (s: string): void => {
    out += s;
    if (out.length > limit) throw full;
  };
  // Secrets first, then the cut: a cut secret would leave its first characters.
  const text = (s: string): string => {
    const t = redactText(s, secrets);
    return JSON.stringify(t.length > limit ? t.slice(0, limit + 1) : t);
  };
  const walk = (v: unknown): void => {
    if (typeof v === 'string') return emit(text(v));
    if (typeof v === 'bigint') return emit(String(v));
    if (v === null || typeof v !== 'object') return emit(JSON.stringify(v) ?? String(v));
    if (Array.isArray(v)) {
      emit('[');
      v.forEach((item, i) => {
        if (i) emit(',');
        walk(item);
      });
      return emit(']');
    }
    emit('{');
    Object.keys(v).forEach((k, i) => {
      emit(`${i ? ',' : ''}${text(k)}:`);
      walk(SECRET_KEY.test(k) ? REDACTED : (v as Record<string, unknown>)[k]);
    });
    emit('}');
  };
  try {
    walk(value);
  } catch (e) {
    if (e !== full) throw e;
    return `${out.slice(0, limit - 3)}...`;
  }
  return out;
}

const unescape = (segment: string): string => segment.replace(/~1/g, '/').replace(/~0/g, '~');

/**
 * The value a JSON pointer points at in `root`; where it points at nothing (a missing property), the
 * nearest value above it, with its pointer.
 *
 * @example
 * ```ts
 * valueAt({ a: { b: 1 } }, '/a/c'); // { found: false, at: '/a', value: { b: 1 } }
 * ```
 */
export function valueAt(root: unknown, pointer: string): { found: boolean; at: string; value: unknown } {
  const segments = pointer === '' ? [] : pointer.split('/').slice(1);
  let current = root;
  for (let i = 0; i < segments.length; i++) {
    const key = unescape(segments[i]!);
    const own = current !== null && typeof current === 'object' && Object.prototype.hasOwnProperty.call(current, key);
    if (!own) return { found: false, at: segments.slice(0, i).map((s) => `/${s}`).join(''), value: current };
    current = (current as Record<string, unknown>)[key];
  }
  return { found: true, at: pointer, value: current };
}
