import type { ValidationIssue } from '@x/common';
import type { CompiledError } from './compiled.js';

/**
 * One problem found in a value: `ValidationIssue` of `@x/common`, the one declaration, which the
 * clients' `ResponseValidationError.issues` carry too.
 */
export type Issue = ValidationIssue;

function escapePointer(segment: unknown): string {
  return String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
}

function quote(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

/**
 * A property name of the value, quoted for a message: its first 64 characters (a value may hold a
 * 10 MB key; the path always has it whole).
 */
function quoteKey(key: unknown): string {
  const text = String(key);
  return quote(text.length > 64 ? `${text.slice(0, 64)}...` : text);
}

function typeNames(type: unknown): string {
  const list = Array.isArray(type) ? type : String(type).split(',');
  return list.join(' or ');
}

const LIMIT_NOUN: Readonly<Record<string, readonly [string, string]>> = {
  minItems: ['fewer', 'items'],
  maxItems: ['more', 'items'],
  items: ['more', 'items'],
  minLength: ['fewer', 'characters'],
  maxLength: ['more', 'characters'],
  minProperties: ['fewer', 'properties'],
  maxProperties: ['more', 'properties'],
};

/** The issue a compiled error stands for: the path it points at, its keyword and its message. */
export function toIssue(e: CompiledError): Issue {
  const p = e.params;
  let path = e.instancePath;
  let keyword = e.keyword;
  let message: string;
  switch (e.keyword) {
    case 'keyedUnion': {
      keyword = String(p.keyword);
      if (keyword === 'propertyNames') {
        path += `/${escapePointer(p.key)}`;
        message = `unknown key ${quoteKey(p.key)}; the allowed keys are ${String(p.keys)}`;
      } else if (keyword === 'minProperties' || keyword === 'maxProperties') {
        const found: readonly unknown[] = Array.isArray(p.found) ? p.found : [];
        // A value may have a million keys: at most five are named.
        const named = found.slice(0, 5).map(quoteKey).join(', ');
        message = `must have exactly one key, one of ${String(p.keys)} (found ${named || 'none'}${found.length > 5 ? ', ...' : ''})`;
      } else {
        message = `must be ${String(p.expected)}`;
      }
      break;
    }
    case 'taggedUnion':
      // The shape and tag of a tagged union (v3's txn_type): the compiled code writes the path and message.
      keyword = String(p.keyword);
      message = String(p.message);
      break;
    case 'required':
      path += `/${escapePointer(p.missingProperty)}`;
      message = `required property ${quote(p.missingProperty)} is missing`;
      break;
    case 'additionalProperties':
      path += `/${escapePointer(p.additionalProperty)}`;
      message = `unknown property ${quoteKey(p.additionalProperty)} is not allowed`;
      break;
    case 'hexPattern':
    case 'namedPattern':
      // A hex-string pattern checked by code, or a named schema's pattern: reported as the pattern it
      // stands for, in words (`must be an account address: 0x followed by 1 to 64 hex digits`).
      keyword = 'pattern';
      message = `must be ${String(p.message)}`;
      break;
    case 'unsafeInteger':
      message =
        'is beyond Number.MAX_SAFE_INTEGER (2^53-1): JSON.parse may have rounded it, so the exact value is lost ' +
        '(parse such fields without loss, e.g. as strings or BigInt)';
      break;
    case 'type':
      message = `must be ${typeNames(p.type)}`;
      break;
    case 'enum': {
      const allowed = Array.isArray(p.allowedValues) ? p.allowedValues : [];
      message = `must be one of ${allowed.map(quote).join(', ')}`;
      break;
    }
    case 'const':
      message = `must be ${quote(p.allowedValue)}`;
      break;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      message = `must be ${String(p.comparison)} ${String(p.limit)}`;
      break;
    case 'multipleOf':
      message = `must be a multiple of ${String(p.multipleOf)}`;
      break;
    case 'pattern':
      message = `must match pattern ${quote(p.pattern)}`;
      break;
    case 'format':
      message = `must match format ${quote(p.format)}`;
      break;
    case 'uniqueItems':
      message = `must NOT have duplicate items (items ${String(p.j)} and ${String(p.i)} are identical)`;
      break;
    case 'false schema':
      message = 'must NOT be present';
      break;
    default: {
      const noun = LIMIT_NOUN[e.keyword];
      message = noun ? `must NOT have ${noun[0]} than ${String(p.limit)} ${noun[1]}` : `must pass "${e.keyword}" validation`;
    }
  }
  return { path, message, keyword };
}

/**
 * The errors with each `liveForms` error (a value of the live profile that fits neither the documented
 * nor the observed form, see the generator's `live-forms.ts`) folded into the `count` errors before
 * it, the errors of the form that came closest: their messages say which form that was and name the
 * overlay actions.
 */
function foldLiveForms(errors: readonly CompiledError[]): Issue[] {
  const issues: Issue[] = [];
  for (const e of errors) {
    if (e.keyword !== 'liveForms') {
      issues.push(toIssue(e));
      continue;
    }
    const note =
      ` (neither the documented nor the observed form fits; closest: the ${String(e.params.closest)} form;` +
      ` overlay action ${String(e.params.actions)})`;
    const count = Math.min(Number(e.params.count) || 0, issues.length);
    for (let i = issues.length - count; i < issues.length; i++) {
      const issue = issues[i]!;
      if (!issue.message.endsWith(')') || !issue.message.includes('closest: the')) issues[i] = { ...issue, message: issue.message + note };
    }
  }
  return issues;
}

/** The issues of a failed validation, at most `max`. */
export function toIssues(errors: readonly CompiledError[] | null | undefined, max: number): Issue[] {
  const list = errors ?? [];
  const issues = list.some((e) => e.keyword === 'liveForms') ? foldLiveForms(list).slice(0, max) : list.slice(0, max).map(toIssue);
  if (issues.length === 0) issues.push({ path: '', message: 'is invalid', keyword: 'unknown' });
  return issues;
}

/** Formats issues for a message: one line each, `path: message`, at most `limit` lines. */
export function formatIssues(issues: readonly Issue[], limit = 10): string {
  const lines = issues.slice(0, limit).map((i) => `  ${i.path === '' ? '(root)' : i.path}: ${i.message}`);
  if (issues.length > limit) lines.push(`  ... and ${issues.length - limit} more`);
  return lines.join('\n');
}
