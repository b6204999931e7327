/**
 * The hostile values of hostile.test.ts (the verdicts on them) and hostile.perf.test.ts (the time they
 * take, linear in their size): one definition, so both files judge the same inputs.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

export const MB = 2 ** 20;
/** A million: the length of the hostile arrays whose time hostile.perf.test.ts measures. */
export const M = 1_000_000;
/**
 * The length of hostile.test.ts's arrays and the key count of its object: twice the ~140,000 arguments
 * V8 takes in one call, so a validator that spreads or `apply`s the items or keys throws a RangeError
 * here. A million (`M`) checks nothing more there and costs three times the CPU; its time is perf's.
 */
export const MANY = 300_000;

/** Every `pattern` in both spec documents (schemas and parameters). */
export const specPatterns: string[] = [
  ...new Set(
    ['node-rpc.openapi.yaml', 'price-history.openapi.yaml'].flatMap((file) => {
      const doc: unknown = parse(readFileSync(new URL(`../../../specs/${file}`, import.meta.url), 'utf8'));
      const found: string[] = [];
      const walk = (v: unknown): void => {
        if (Array.isArray(v)) v.forEach(walk);
        else if (v && typeof v === 'object') {
          for (const [k, x] of Object.entries(v)) {
            if (k === 'pattern' && typeof x === 'string') found.push(x);
            else walk(x);
          }
        }
      };
      walk(doc);
      return found;
    }),
  ),
];

/** Long strings that almost match: one character repeated, then a character no pattern ends with. */
export const nearMisses = (n: number): string[] =>
  ['0', 'a', '1.'].flatMap((c) => {
    const body = c.repeat(Math.ceil(n / c.length));
    return [`${body}!`, `0x${body}!`, `-${body}_${body}x`];
  });

/** The string schemas whose validators get the near misses. */
export const STRING_SCHEMAS = ['HexString', 'Hash', 'Identity', 'AccountAddress', 'Address', 'DecimalString', 'SignedDecimalString', 'TradingPair'];

/**
 * The spec patterns that run on 10 MB without a stack overflow, and those that overflow. V8 keeps a
 * backtrack entry per iteration of a repeated group: `^0x([0-9a-fA-F]{2})*$` (MoveValue Bytes) throws
 * "Maximum call stack size exceeded" on 10 MB. The validators check every hex pattern in code
 * (`hexPattern`), with `^(0x)?[0-9a-fA-F]*$` for the digits, and never run it.
 */
export function splitByOverflow(inputs: readonly string[]): { regexps: RegExp[]; overflowing: { pattern: string; error: unknown }[] } {
  const regexps: RegExp[] = [];
  const overflowing: { pattern: string; error: unknown }[] = [];
  for (const p of specPatterns) {
    const re = new RegExp(p, 'u');
    try {
      for (const s of inputs) re.test(s);
      regexps.push(re);
    } catch (error) {
      overflowing.push({ pattern: p, error });
    }
  }
  return { regexps, overflowing };
}

/** A u8 cursor of `n` items, the last one `last`. */
export const u8s = (n: number, last = 7): number[] => Object.assign(new Array<number>(n).fill(7), { [n - 1]: last });
/** A v1 MoveValue response of `n` times `item`. */
export const moveValues = (n: number, item: unknown): { result: unknown[] } => ({ result: new Array<unknown>(n).fill(item) });
