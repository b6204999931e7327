// The README's "Playwright, a stub per test": the node stub as a loopback server in the test's Node
// process, the page (served from another origin) fetching from it cross-origin.
import { startNodeStub, type NodeStubHandle } from '@x/testing';
import { test as base, expect } from './app.ts';

const test = base.extend<{ stub: NodeStubHandle }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture needs from this pattern
  stub: async ({}, use) => {
    const stub = await startNodeStub(); // a free port per test
    await use(stub);
    await stub.close();
  },
});

test('shows the account', async ({ page, stub, appUrl }) => {
  await page.goto(`/?node=${encodeURIComponent(stub.url)}&account=${stub.accounts.alice}`);
  await expect(page.getByTestId('sequence-number')).toHaveText('150');

  // A simple GET sends no preflight: one request, from the page's origin.
  expect(stub.requests.map((r) => `${r.method} ${r.operationId}`)).toEqual(['GET getAccountV2']);
  expect(stub.requests[0]?.headers.origin).toBe(appUrl);
});

test('shows an error when the node fails, then the account', async ({ page, stub }) => {
  stub.failNext('getAccountV2', 503);
  await page.goto(`/?node=${encodeURIComponent(stub.url)}&account=${stub.accounts.exactly101}`);
  await expect(page.getByRole('alert')).toHaveText('Could not read the account: the node answered HTTP 503');
  await expect(page.getByTestId('sequence-number')).toHaveText('');

  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByTestId('sequence-number')).toHaveText('101');
  await expect(page.getByRole('alert')).toBeHidden();
  expect(stub.requests.map((r) => r.operationId)).toEqual(['getAccountV2', 'getAccountV2']);
});
