import type { CompiledFunction, SchemaValidators } from './compiled.js';
import { liveProfile } from './generated/ajv.js';
import { type Issue, formatIssues, toIssues } from './issues.js';

/**
 * The reading of the node API a value is checked against: `'documented'`, the specs exactly as the
 * API documents say; `'live'`, what real nodes are observed to send as well (the overlay
 * `specs/node-rpc.live-overlay.yaml`): where the forms differ, either is valid.
 */
export type Profile = 'documented' | 'live';

/** Options of every `validateX`, `isX`, `assertX` and of `validateResponse`. */
export interface ValidateOptions {
  /**
   * `'documented'` (the default of `validateX`, `isX`, `assertX` and `validateResponse`: the contract)
   * or `'live'` (also what real nodes send; the default of `createResponseValidator`, whose validators
   * check what the clients receive from live nodes). Orthogonal to `strict`.
   */
  profile?: Profile;
  /** Strict profile: unknown properties are errors (default `false`: lenient, forward compatible). */
  strict?: boolean;
  /** Collect every issue instead of stopping at the first (default `false`). */
  allErrors?: boolean;
  /** With `allErrors`, keep at most this many issues (default {@link DEFAULT_MAX_ISSUES}). */
  maxIssues?: number;
}

/** Cap of the issues `allErrors` collects unless `maxIssues` says otherwise. */
export const DEFAULT_MAX_ISSUES = 100;

/** Result of a validation: the value, typed, or the issues found. */
export type ValidationResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: readonly Issue[] };

/** Thrown by the `assertX` functions; `issues` lists what is wrong, the message names the paths. */
export class ValidationError extends Error {
  override readonly name = 'ValidationError';
  /** What was validated: a schema name, or `operationId status` for a response. */
  readonly subject: string;
  readonly issues: readonly Issue[];
  constructor(subject: string, issues: readonly Issue[]) {
    super(`Invalid ${subject}:\n${formatIssues(issues)}`);
    this.subject = subject;
    this.issues = issues;
  }
}

/** How many issues a validation with these options reports; throws a RangeError for a bad `maxIssues`. */
export function issueLimit(options: ValidateOptions | undefined): number {
  if (!options?.allErrors) return 1;
  const max = options.maxIssues ?? DEFAULT_MAX_ISSUES;
  if (!Number.isInteger(max) || max < 1) throw new RangeError(`maxIssues must be a positive integer, got ${String(max)}`);
  return max;
}

/** Throws a RangeError naming `profile` unless it is absent, `'documented'` or `'live'`. */
export function checkProfile(options: ValidateOptions | undefined): void {
  const profile = options?.profile;
  if (profile !== undefined && profile !== 'documented' && profile !== 'live') {
    throw new RangeError(`profile must be 'documented' or 'live', got ${JSON.stringify(profile) ?? String(profile)}`);
  }
}

/** Whether the options ask for the live reading; throws for a `profile` that is neither. */
function isLive(options: ValidateOptions | undefined): boolean {
  const profile = options?.profile;
  if (profile === undefined || profile === 'documented') return false;
  if (profile === 'live') return true;
  checkProfile(options);
  return false;
}

function pick(v: SchemaValidators, options: ValidateOptions | undefined): CompiledFunction {
  if (options?.allErrors) return options.strict ? v.strictAll : v.lenientAll;
  return options?.strict ? v.strict : v.lenient;
}

/**
 * Runs a compiled function: its verdict, or the one issue standing for a value it cannot judge. It
 * does not throw for those; what a value itself throws (a getter, a Proxy trap) propagates.
 *
 * - `prototypePollution`: Object.prototype has an enumerable property, the mark of pollution. The
 *   compiled code reads own properties only, so no member of Object.prototype (enumerable or not)
 *   stands in for a property; an enumerable one is still refused, as the sign of an attack under way.
 * - `maxDepth`: the value nests deeper than the call stack allows (V8 and JavaScriptCore throw a
 *   RangeError, SpiderMonkey an InternalError).
 */
function run(fn: CompiledFunction, value: unknown, live: boolean): true | readonly Issue[] | undefined {
  for (const key in Object.prototype) {
    return [issue('prototypePollution', `cannot be validated: Object.prototype has the enumerable property ${JSON.stringify(key)} (prototype pollution)`)];
  }
  // The compiled functions are synchronous; the switch is restored afterwards, so a validation a value's
  // getter starts in the middle of this one cannot change this one's profile.
  const outer = liveProfile.live;
  liveProfile.live = live;
  try {
    return fn(value) || undefined;
  } catch (e) {
    if (e instanceof RangeError || (e as Error | null)?.name === 'InternalError') {
      return [issue('maxDepth', 'is nested too deeply to validate (the call stack ran out)')];
    }
    throw e;
  } finally {
    liveProfile.live = outer;
  }
}

function issue(keyword: string, message: string): Issue {
  return { path: '', keyword, message };
}

/** Runs the compiled validators of a schema with the options a caller gave. */
export function runValidator<T>(v: SchemaValidators, value: unknown, options?: ValidateOptions): ValidationResult<T> {
  const max = issueLimit(options);
  const fn = pick(v, options);
  const verdict = run(fn, value, isLive(options));
  if (verdict === true) return { ok: true, value: value as T };
  return { ok: false, issues: verdict ?? toIssues(fn.errors, max) };
}

/**
 * A schema's validation with its options read once (a bad `profile` or `maxIssues` throws a RangeError
 * here): `undefined` for a valid value, otherwise the issues `runValidator` gives. For adapters that
 * validate many values with the same options (`@x/validators/standard`).
 */
export function prepareValidator(v: SchemaValidators, options?: ValidateOptions): (value: unknown) => readonly Issue[] | undefined {
  const max = issueLimit(options);
  checkProfile(options);
  const fn = pick(v, options);
  const live = isLive(options);
  return (value) => {
    const verdict = run(fn, value, live);
    if (verdict === true) return undefined;
    return verdict ?? toIssues(fn.errors, max);
  };
}

/** `true` when the value is valid (never collects issues). */
export function isValid(v: SchemaValidators, value: unknown, options?: ValidateOptions): boolean {
  return run(options?.strict ? v.strict : v.lenient, value, isLive(options)) === true;
}

/** Throws a {@link ValidationError} unless the value is valid. */
export function assertValid(v: SchemaValidators, value: unknown, options?: ValidateOptions): void {
  const result = runValidator(v, value, options);
  if (!result.ok) throw new ValidationError(v.name, result.issues);
}
