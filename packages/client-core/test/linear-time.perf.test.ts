/**
 * Every reader of text a server sends runs in linear time: each is fed adversarial text of 10,000 and of
 * 100,000 characters, and ten times the text may cost about ten times the time, never a hundred (what a
 * backtracking expression costs: a 100,000-letter error message once blocked the process for 8.5 s).
 * Times are the best of several runs, compared with each other, never with a wall-clock constant. A
 * `perf` project file (`pnpm test:perf`): run alone, so no other test file shares the CPU while it times.
 */
import { describe, expect, it } from 'vitest';
import { HttpError, redactUrl } from '@x/client-core';
import { isWellFormed, readPage, underBase } from '@x/client-core/internal';
import { bestTime as best } from '@x-tools/test-helpers';
import { canonicalAddress, paging, type PagingRule } from '@x/common';

const swallow = (f: () => unknown) => (): void => {
  try {
    f();
  } catch {
    // a reader may refuse the text: what counts is how long it took to say so
  }
};

const httpError = (message: string) => () => new HttpError({ status: 400, body: { message }, method: 'GET', url: 'http://n/x' });
const cursorPage = (cursor: string) => () => readPage('listModulesV2', paging.listModulesV2 as PagingRule, { modules: [{}], cursor });

// [what, reader, adversarial text of n characters]
const readers: [string, (text: string) => () => unknown, (n: number) => string][] = [
  ['HttpError message: letters (scheme part of the URL expression)', httpError, (n) => 'a'.repeat(n)],
  ['HttpError message: scheme characters', httpError, (n) => 'a.+-'.repeat(n / 4)],
  ['HttpError message: "a:/" runs', httpError, (n) => 'a:/'.repeat(n / 3)],
  ['HttpError message: one long URL', httpError, (n) => `https://h/${'x'.repeat(n)}`],
  ['HttpError message: spaces', httpError, (n) => `a${' '.repeat(n)}b`],
  ['redactUrl: question marks in what is not a URL', (t) => () => redactUrl(t), (n) => `${'?'.repeat(n)}\n`],
  ['redactUrl: a long query', (t) => () => redactUrl(t), (n) => `http://h/?${'a=1&'.repeat(n / 4)}`],
  ['isWellFormed: high surrogates', (t) => () => isWellFormed(t), (n) => '\uD800'.repeat(n)],
  ['isWellFormed: pairs', (t) => () => isWellFormed(t), (n) => '\uD83D\uDE00'.repeat(n / 2)],
  ['readPage: a long cursor', (t) => swallow(cursorPage(t)), (n) => 'c'.repeat(n)],
  ['underBase: escaped slashes', (t) => () => underBase(`http://h/base/${t}`, 'http://h/base'), (n) => '..%2f'.repeat(n / 5)],
  ['underBase: lone percent signs', (t) => () => underBase(`http://h/base/${t}`, 'http://h/base'), (n) => '%'.repeat(n)],
  ['canonicalAddress: zeros', (t) => () => canonicalAddress(t), (n) => `0x${'0'.repeat(n)}1`],
];

describe('text from a server is read in linear time', () => {
  it.each(readers)('%s', (_name, reader, text) => {
    const small = best(reader(text(10_000)));
    const large = best(reader(text(100_000)));
    // Linear is about 10x; quadratic 100x. 30x leaves room for a loaded machine and the cache.
    expect(large / small).toBeLessThan(30);
  });
});
