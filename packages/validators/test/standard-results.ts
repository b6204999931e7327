/**
 * What standard.test.ts and standard.perf.test.ts compare: a Standard Schema's result, and the one
 * `validateX`'s issues must make (paths as keys), in every reading.
 */
import type { Issue, ValidateOptions } from '../src/index.ts';
import type { StandardValidator } from '../src/standard.ts';
import { pointerToPath } from '../src/standard/adapter.ts';

export type Std = StandardValidator<unknown>;
type StdIssue = { message: string; path?: readonly PropertyKey[] };
type StdResult = { value?: unknown; issues?: readonly StdIssue[] };

export const run = (s: Std, value: unknown): StdResult => s['~standard'].validate(value) as StdResult;

/** A JSON pointer of a Standard Schema path (the inverse of the conversion, written independently). */
export const pointerOf = (path: readonly PropertyKey[]): string => path.map((k) => `/${String(k).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

/** What the standard issues must be: validateX's issues with each pointer as keys, nothing else. */
export function expected(issues: readonly Issue[], value: unknown): StdIssue[] {
  return issues.map((i) => ({ message: i.message, path: pointerToPath(i.path, value) }));
}

/** The four readings, and the options of validateX that only change how many issues are reported. */
export const READINGS: ValidateOptions[] = [{}, { strict: true }, { profile: 'live' }, { profile: 'live', strict: true }];
export const OPTIONS: ValidateOptions[] = READINGS.flatMap((r) => [r, { ...r, allErrors: true }, { ...r, allErrors: true, maxIssues: 2 }]);
