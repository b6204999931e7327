/**
 * Where a credential may go, and where it is never shown: under the base URL by the path
 * a server may read, percent-escapes decoded (twice too), backslashes as slashes, dot segments resolved.
 */
import { describe, expect, it } from 'vitest';
import { redactText } from '@x/client-core';
import { underBase } from '@x/client-core/internal';

describe('underBase: the paths the price key may go to', () => {
  it.each([
    ['http://h/base/history', 'http://h/base', true],
    ['http://h/base/history', 'http://h/base/', true],
    ['http://h/base', 'http://h/base/', true],
    ['http://H:80/base/./history?x=/../', 'http://h/base', true],
    ['http://h/anything', 'http://h', true],
    ['http://h/basement/x', 'http://h/base', false],
    ['http://h/base/..%2fother/history', 'http://h/base/', false],
    ['http://h/base/..%2Fother/history', 'http://h/base/', false],
    ['http://h/base/%2e%2e%2fother', 'http://h/base/', false],
    ['http://h/base/..%5cother/history', 'http://h/base/', false],
    ['http://h/base/%252e%252e%252fother', 'http://h/base/', false],
    ['http://h/base\\..\\other', 'http://h/base/', false],
    // %u escapes, as IIS reads them.
    ['http://h/base/..%u002fother/history', 'http://h/base/', false],
    ['http://other/base/x', 'http://h/base', false],
    ['https://h/base/x', 'http://h/base', false],
    ['http://h:8080/base/x', 'http://h/base', false],
    ['not a url', 'http://h/base', false],
  ])('%s under %s: %s', (url, base, under) => {
    expect(underBase(url, base)).toBe(under);
  });
});

describe('redactText: a key the client was given, out of any text', () => {
  it.each([
    ['bad key sk-1 and sk-1 again', 'sk-1', 'bad key [REDACTED] and [REDACTED] again'],
    ['two keys a1 b2', ['a1', 'b2'], 'two keys [REDACTED] [REDACTED]'],
    ['an empty key leaves the text', '', 'an empty key leaves the text'],
    ['no key here', ['sk-9'], 'no key here'],
  ] as const)('%s', (text, secrets, shown) => {
    expect(redactText(text, secrets)).toBe(shown);
  });
});
