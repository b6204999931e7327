// The README's "Playwright, in memory": no socket for the node. The page's requests to
// http://127.0.0.1:27000 are answered by createNodeStubFetch in the test process, through page.route.
import { createNodeStubFetch, type NodeStubFetch } from '@x/testing';
import { test as base, expect } from './app.ts';

const test = base.extend<{ stub: NodeStubFetch }>({
  stub: async ({ page }, use) => {
    const stub = createNodeStubFetch(); // serves http://127.0.0.1:27000
    await page.route('http://127.0.0.1:27000/**', async (route) => {
      const request = route.request();
      try {
        const r = await stub(request.url(), { method: request.method(), headers: request.headers() });
        await route.fulfill({ status: r.status, headers: Object.fromEntries(r.headers), body: await r.text() });
      } catch {
        await route.abort('connectionreset'); // the reset and truncated faults
      }
    });
    await use(stub);
  },
});

test('shows the account', async ({ page, stub }) => {
  await page.goto(`/?node=${encodeURIComponent(stub.url)}&account=${stub.accounts.alice}`);
  await expect(page.getByTestId('sequence-number')).toHaveText('150');

  // The recorded headers are those the browser sent.
  expect(stub.requests.map((r) => `${r.method} ${r.operationId}`)).toEqual(['GET getAccountV2']);
  expect(stub.requests[0]?.headers['user-agent']).toContain('Chrome');
});

test('shows an error when the node fails, then the account', async ({ page, stub }) => {
  stub.failNext('getAccountV2', 503);
  await page.goto(`/?node=${encodeURIComponent(stub.url)}&account=${stub.accounts.exactly101}`);
  await expect(page.getByRole('alert')).toHaveText('Could not read the account: the node answered HTTP 503');

  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByTestId('sequence-number')).toHaveText('101');
  expect(stub.requests.map((r) => r.operationId)).toEqual(['getAccountV2', 'getAccountV2']);
});

test('a reset fault is a network error for the page', async ({ page, stub }) => {
  stub.failNext('getAccountV2', 'reset');
  await page.goto(`/?node=${encodeURIComponent(stub.url)}&account=${stub.accounts.alice}`);
  await expect(page.getByRole('alert')).toHaveText('Could not read the account: Failed to fetch');
});
