import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import * as validators from '@x/validators';
import type { Issue, ValidateOptions, ValidationResult } from '@x/validators';

type Validate = (value: unknown, options?: ValidateOptions) => ValidationResult<unknown>;
type Is = (value: unknown, options?: ValidateOptions) => boolean;
type Assert = (value: unknown, options?: ValidateOptions) => void;

const table = validators as unknown as Record<string, unknown>;

/** `validateX`, `isX` and `assertX` of a schema, looked up by name. */
export function fns(name: string): { validate: Validate; is: Is; assert: Assert } {
  const get = <T>(prefix: string): T => {
    const fn = table[`${prefix}${name}`];
    if (typeof fn !== 'function') throw new Error(`@x/validators exports no ${prefix}${name}`);
    return fn as T;
  };
  return { validate: get<Validate>('validate'), is: get<Is>('is'), assert: get<Assert>('assert') };
}

/** Every schema name with a `validateX` export. */
export const exportedSchemaNames: string[] = Object.keys(table)
  .filter((k) => k.startsWith('validate') && k !== 'validateResponse')
  .map((k) => k.slice('validate'.length))
  .sort();

/** Schema names of both spec files, the price one renamed where the node spec has the same name. */
export function specSchemaNames(): string[] {
  const read = (file: string) =>
    Object.keys(
      (parse(readFileSync(fileURLToPath(new URL(`../../../specs/${file}`, import.meta.url)), 'utf8')) as {
        components: { schemas: Record<string, unknown> };
      }).components.schemas,
    );
  const node = read('node-rpc.openapi.yaml');
  const price = read('price-history.openapi.yaml').map((n) => (node.includes(n) ? `Price${n}` : n));
  return [...node, ...price].sort();
}

/** The issues of a result that must be a failure. */
export function issuesOf(result: ValidationResult<unknown> | { ok: boolean; issues?: readonly Issue[] }): readonly Issue[] {
  if (result.ok) throw new Error('expected the value to be rejected');
  return (result as { issues: readonly Issue[] }).issues;
}

/** `promise`, or a rejection naming `what` once `ms` pass (so a hang fails the test instead of stalling it). */
export async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not end within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
