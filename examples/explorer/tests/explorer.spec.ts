/**
 * The explorer as a person uses it, with no server: the page answers from @x/testing's in-memory stubs,
 * which it exposes as `window.explorer` (their `requests` count what the app asked for).
 */
import type { Page } from '@playwright/test';
import { expect, requests, screenshot, test } from './app.ts';

const account = (page: Page) => page.getByRole('region', { name: 'Account' });

/** Opens the app and waits for it: it renders once its clients (and stubs) are set up. */
async function open(page: Page, url = '/'): Promise<void> {
  await page.goto(url);
  await expect(account(page)).toBeVisible();
}

test('opens an account, scrolls its transactions to a second page', async ({ page }) => {
  await open(page);
  await expect(page.getByRole('heading', { name: 'Supra explorer' })).toBeVisible();
  await expect(page.getByText('Enter an address or pick an account.')).toBeVisible();

  // A shortcut, by keyboard.
  await page.getByRole('button', { name: 'busy' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('sequence-number')).toHaveText('2500');
  await expect(page.getByRole('textbox', { name: 'Address' })).toHaveValue(/^0x9ece99f2/);
  await expect(page.getByTestId('balance')).toHaveText(/^[\d,.]+ SUPRA$/);
  expect(new URL(page.url()).searchParams.get('account')).toMatch(/^0x9ece99f2/);

  // Newest first: 2499 down, one page of 25.
  const transactions = page.getByRole('region', { name: 'Transactions', exact: true });
  const rows = transactions.getByRole('listitem');
  await expect(rows).toHaveCount(25);
  await expect(rows.first()).toContainText('#2499');
  await expect(rows.nth(24)).toContainText('#2475');
  await expect(rows.first().locator('time')).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
  expect(await requests(page, 'listTransactionsV2')).toBe(1);

  // The other lists of the account.
  await expect(page.getByRole('region', { name: 'Coin transactions' }).getByRole('listitem')).toHaveCount(25);
  await expect(page.getByRole('region', { name: 'Resources' }).getByRole('listitem').first()).toContainText('0x1::account::Account');
  await page.screenshot({ path: screenshot('account'), fullPage: true });

  // Scrolling to the end of the list fetches the second page.
  await transactions.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  await expect(rows).toHaveCount(50);
  await expect(rows.nth(25)).toContainText('#2474');
  expect(await requests(page, 'listTransactionsV2')).toBe(2);
  await expect(page.getByRole('heading', { name: 'Transactions (50+)' })).toBeVisible();
  await transactions.screenshot({ path: screenshot('transactions-second-page') });
});

test('a module list shows the exposed functions', async ({ page }) => {
  await open(page);
  await page.getByRole('button', { name: 'framework' }).click();
  const modules = page.getByRole('region', { name: 'Modules' });
  const coin = modules.getByRole('group').filter({ hasText: /^coin/ });
  await coin.locator('summary').focus();
  await page.keyboard.press('Enter');
  await expect(coin.getByRole('listitem').first()).toContainText('fun ');
  await expect(coin).toContainText('view');
  await page.screenshot({ path: screenshot('modules'), fullPage: true });
});

test('an empty account, a missing one (404), a bad address, a timeout', async ({ page }) => {
  await open(page, '/?timeout=300');
  const address = page.getByRole('textbox', { name: 'Address' });

  const listed = await requests(page, 'listTransactionsV2');
  await page.getByRole('button', { name: 'empty' }).click();
  await expect(page.getByTestId('sequence-number')).toHaveText('0');
  await expect(page.getByText('No transactions sent.')).toBeVisible();
  await expect(page.getByText('No modules published.')).toBeVisible();

  // Typed, submitted with Enter.
  await address.fill('0x1234');
  await address.press('Enter');
  await expect(account(page).getByRole('alert')).toContainText('No such account');
  await expect(account(page).getByRole('button', { name: 'Try again' })).toHaveCount(0); // a 404 is an answer
  expect(await requests(page, 'listTransactionsV2')).toBe(listed + 1); // the empty account's; the lists wait for the account
  await page.screenshot({ path: screenshot('not-found'), fullPage: true });

  await address.fill('0xnot-hex');
  await address.press('Enter');
  await expect(account(page).getByRole('alert')).toContainText('Not a valid address');
  await page.screenshot({ path: screenshot('invalid-address'), fullPage: true });

  // Every attempt (the client makes 3) answers after 5 s; the page gives up after 300 ms each.
  await page.evaluate(() => window.explorer!.nodeStub!.failNext('getAccountV2', 'slow', 3, { delayMs: 5_000 }));
  await page.getByRole('button', { name: 'alice' }).click();
  await expect(account(page).getByRole('alert')).toContainText('No answer in time');
  await expect(account(page).getByRole('alert')).toContainText('300 ms per attempt');
  expect(await requests(page, 'getAccountV2')).toBe(3 + 2); // empty, 0x1234, then 3 attempts for alice
  await page.screenshot({ path: screenshot('timeout'), fullPage: true });

  // The node answers again.
  await account(page).getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByTestId('sequence-number')).toHaveText('150');
});

test('a body that fails validation: live shapes checked against the documented reading', async ({ page }) => {
  // The stub answers as real nodes do (timestamps as objects, …); the client validates as the document says.
  await open(page, '/?shapes=live&validate=documented');
  await page.getByRole('button', { name: 'alice' }).click();
  await expect(page.getByTestId('sequence-number')).toHaveText('150');
  const transactions = page.locator('section.list').filter({ has: page.getByRole('heading', { name: /^Transactions/ }) });
  await expect(transactions.getByRole('alert')).toContainText('The answer failed validation');
  await expect(transactions.getByRole('alert')).toContainText('/record/0/');
  await page.screenshot({ path: screenshot('validation-failure'), fullPage: true });

  // The live reading accepts them, and the shapes helpers read them.
  await open(page, '/?shapes=live&validate=live');
  await page.getByRole('button', { name: 'alice' }).click();
  const rows = page.getByRole('region', { name: 'Transactions', exact: true }).getByRole('listitem');
  await expect(rows).toHaveCount(25);
  await expect(rows.first()).toContainText('#149');
  await expect(rows.first().locator('time')).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
});

test('draws a price chart with volume and shows the latest price', async ({ page }) => {
  await open(page);
  const prices = page.getByRole('region', { name: 'Prices' });
  await expect(prices.getByTestId('latest-price')).toContainText('% in 24 h');
  await expect(prices.getByText(/^120 candles, btc_usdt candles of 1 hour/)).toBeVisible();

  // The chart's main canvas is drawn: many colours, both candle colours among them.
  const pixels = () =>
    page.getByTestId('chart').evaluate((el) => {
      const canvases = [...el.querySelectorAll('canvas')];
      const canvas = canvases.sort((a, b) => b.width * b.height - a.width * a.height)[0]!;
      // Read a copy, so that the chart's own canvas is not read back (Chromium warns after several reads).
      const copy = document.createElement('canvas');
      [copy.width, copy.height] = [canvas.width, canvas.height];
      const context = copy.getContext('2d', { willReadFrequently: true })!;
      context.drawImage(canvas, 0, 0);
      const data = context.getImageData(0, 0, copy.width, copy.height).data;
      const colours = new Set<number>();
      let up = 0;
      let down = 0;
      for (let i = 0; i < data.length; i += 4) {
        const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
        colours.add((r << 16) | (g << 8) | b);
        if (r === 0x26 && g === 0xa6 && b === 0x9a) up++;
        if (r === 0xef && g === 0x53 && b === 0x50) down++;
      }
      return { colours: colours.size, up, down, width: canvas.width };
    });
  await expect.poll(async () => (await pixels()).up).toBeGreaterThan(100);
  const drawn = await pixels();
  expect(drawn.down).toBeGreaterThan(100);
  expect(drawn.colours).toBeGreaterThan(10);
  await page.screenshot({ path: screenshot('prices'), fullPage: true });

  // Another pair and resolution, by keyboard: a new history request, another picture.
  const before = await page.getByTestId('chart').screenshot();
  await prices.getByLabel('Pair').selectOption('eth_usdt');
  await prices.getByLabel('Resolution').selectOption('900');
  await expect(prices.getByText(/^120 candles, eth_usdt candles of 15 minutes/)).toBeVisible();
  await expect.poll(async () => (await page.getByTestId('chart').screenshot()).equals(before)).toBe(false);
  await prices.screenshot({ path: screenshot('prices-eth-15m') });
});
