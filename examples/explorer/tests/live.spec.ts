/**
 * The live parts of the explorer against the in-page fakes: the node stub's block stream and the price
 * stub's candle feed, both served in the page by MSW's WebSocket API (src/stub-streams.ts) on the stubs'
 * clocks. New block rows appear as the node stub commits blocks; the chart's last candle moves with the feed.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, screenshot, test } from './app.ts';

test("msw's worker script: the build wrote the installed msw's, which the page registers", async ({ page, request }) => {
  // No copy is committed: vite.config.ts's mswWorker writes this app's msw's own file to dist/.
  const served = await request.get('/mockServiceWorker.js');
  expect(served.headers()['content-type']).toMatch(/^text\/javascript/);
  const installed = readFileSync(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'));
  expect((await served.body()).equals(installed), 'dist/mockServiceWorker.js is not the installed msw worker').toBe(true);

  await page.goto('/');
  await expect(page.getByRole('region', { name: 'Latest blocks' }).getByRole('listitem').first()).toBeVisible();
  const registered = await page.evaluate(async () => (await navigator.serviceWorker.getRegistration('/'))?.active?.scriptURL);
  expect(registered).toMatch(/\/mockServiceWorker\.js$/);
});

test('new blocks appear in the latest blocks as the node commits them', async ({ page }) => {
  await page.goto('/');
  const blocks = page.getByRole('region', { name: 'Latest blocks' });
  const rows = blocks.getByRole('listitem');
  await expect(rows.first()).toBeVisible();
  const heights = async () => (await rows.locator('a').allTextContents()).map((text) => Number(text.slice(1)));
  const [first] = await heights();

  // A block made now, in the stub (its clock moved on to it): its row comes by the stream, on top.
  const made = await page.evaluate(() => window.explorer!.nodeStub!.stream.produce(1));
  expect(made).toBeGreaterThan(first!);
  await expect(blocks.getByRole('link', { name: `#${made}`, exact: true })).toBeVisible();
  // Newest first, every height once and none skipped (the stub also makes blocks on its own clock).
  const shown = await heights();
  expect(shown.length).toBeLessThanOrEqual(10);
  expect(shown).toEqual(shown.map((_, i) => shown[0]! - i));
  expect(shown[0]).toBeGreaterThanOrEqual(made);
  await blocks.screenshot({ path: screenshot('latest-blocks') });

  // A row is a link to its block's page.
  await blocks.getByRole('link', { name: `#${made}`, exact: true }).click();
  await expect(page.getByTestId('block-height')).toHaveText(String(made));
  await expect(page.getByRole('heading', { name: 'Block', exact: true })).toBeVisible();
});

test("the chart's last candle moves with the price feed", async ({ page }) => {
  await page.goto('/');
  const prices = page.getByRole('region', { name: 'Prices' });
  const chart = prices.getByTestId('chart');
  await expect(prices.getByText(/^120 candles, btc_usdt candles of 1 hour/)).toBeVisible();
  // The feed's forming candle is the chart's last: the current hour, after history's last whole one.
  await expect(prices.getByText('(forming, live)')).toBeVisible();
  const hourOf = (ms: number) => new Date(Math.floor(ms / 3_600_000) * 3_600_000).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
  const shown = await prices.getByTestId('last-candle-time').textContent();
  // Read just now: the hour of a moment ago or of now (an hour may have begun in between).
  expect([hourOf(Date.now() - 10_000), hourOf(Date.now())]).toContain(shown);

  // The feed ticks every second on the stub's clock: the close moves, and the chart is redrawn with it.
  const close = prices.getByTestId('last-candle-close');
  const before = { close: await close.textContent(), chart: await chart.screenshot() };
  await expect(close).not.toHaveText(before.close!, { timeout: 10_000 });
  await expect.poll(async () => (await chart.screenshot()).equals(before.chart)).toBe(false);
  expect(await page.evaluate(() => window.explorer!.priceFeed!.subscriptions)).toEqual([{ pair: 'btc_usdt', resolution: 60 }]);
  await prices.screenshot({ path: screenshot('prices-live') });

  // Another pair: the socket subscribes to it instead, and its candle moves in turn.
  await prices.getByLabel('Pair').selectOption('eth_usdt');
  await expect(prices.getByText(/^120 candles, eth_usdt candles of 1 hour/)).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.explorer!.priceFeed!.subscriptions)).toEqual([{ pair: 'eth_usdt', resolution: 60 }]);
  await expect(prices.getByText('(forming, live)')).toBeVisible();
});
