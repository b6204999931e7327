/**
 * What the node client reads of a node's error text in linear time: Supra's "try again in" duration and
 * the `Some("...")` message of older nodes, each fed adversarial text of 10,000 and of 100,000 characters
 * (ten times the text may cost about ten times the time, never a hundred). The readers both clients
 * share are checked in client-core's linear-time test, what nodeErrorMessage answers in
 * node-error-message.test.ts. A `perf` project file (`pnpm test:perf`): run alone, so no other test file
 * shares the CPU while it times.
 */
import { describe, expect, it } from 'vitest';
import { nodeErrorMessage, supraRetryIn } from '@x/node-client';
import { bestTime } from '@x-tools/test-helpers';

const readers: [string, (text: string) => () => unknown, (n: number) => string][] = [
  ['supraRetryIn: digits after the phrase', (t) => () => supraRetryIn({ message: t }), (n) => `try again in ${'1'.repeat(n)}`],
  ['supraRetryIn: "1." runs', (t) => () => supraRetryIn({ message: t }), (n) => `try again in ${'1.'.repeat(n / 2)}`],
  ['supraRetryIn: the phrase again and again', (t) => () => supraRetryIn(t), (n) => 'try again in '.repeat(n / 13)],
  ['nodeErrorMessage: Some("...") with escapes', (t) => () => nodeErrorMessage({ message: t }), (n) => `Some("${'\\"'.repeat(n / 2)}")`],
];

describe("a node's error text is read in linear time", () => {
  it.each(readers)('%s', (_name, reader, text) => {
    const small = bestTime(reader(text(10_000)));
    const large = bestTime(reader(text(100_000)));
    expect(large / small).toBeLessThan(30);
  });
});
