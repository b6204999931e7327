/**
 * Where a credential may go (the price key, and `x-validate record`'s): under the base URL by the path
 * a server may read, percent-escapes decoded (twice too), backslashes as slashes, dot segments resolved.
 */
import { describe, expect, it } from 'vitest';
import { underBase } from '@x/client-core';

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
    ['http://other/base/x', 'http://h/base', false],
    ['https://h/base/x', 'http://h/base', false],
    ['http://h:8080/base/x', 'http://h/base', false],
    ['not a url', 'http://h/base', false],
  ])('%s under %s: %s', (url, base, under) => {
    expect(underBase(url, base)).toBe(under);
  });
});
