import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { findBrowser, inlineScriptHashes, NO_BROWSER_HELP } from '../src/config.ts';

describe('findBrowser', () => {
  it('takes CHROME_PATH when it exists', () => {
    expect(findBrowser({ CHROME_PATH: process.execPath })).toEqual({ path: process.execPath });
  });

  it('fails, saying how to get a browser, when CHROME_PATH does not exist (no fallback)', () => {
    const { path, problem } = findBrowser({ CHROME_PATH: '/nonexistent/chrome' });
    expect(path).toBeUndefined();
    expect(problem).toContain("CHROME_PATH is set to '/nonexistent/chrome', which does not exist");
    expect(problem).toContain('apt-get install -y chromium');
  });

  it('the help names the env var, the install command and where it looked', () => {
    expect(NO_BROWSER_HELP).toMatch(/CHROME_PATH/);
    expect(NO_BROWSER_HELP).toMatch(/apt-get install -y chromium/);
    expect(NO_BROWSER_HELP).toMatch(/\/usr\/bin\/chromium/);
  });
});

describe('inlineScriptHashes', () => {
  const sha = (text: string): string => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

  it('hashes each inline script once, skipping scripts with src and empty ones', () => {
    const html = `<head><script type="module">window.a = 1</script><script src="/x.js"></script><script></script>
      <script>window.b = 2</script><script type="module">window.a = 1</script></head>`;
    expect(inlineScriptHashes(html)).toEqual([sha('window.a = 1'), sha('window.b = 2')]);
  });

  it('a page without inline scripts has none', () => {
    expect(inlineScriptHashes('<script type="module" crossorigin src="/t.js"></script>')).toEqual([]);
  });
});
