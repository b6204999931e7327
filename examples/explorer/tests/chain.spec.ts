/**
 * The transaction page (`?tx=`) and the block page (`?block=`): reached through the links of the account
 * page and of each other, and their states (loading, 404, pruned 410, a bad hash or height). The page
 * answers from @x/testing's in-memory node stub; `?oldest-block=` makes it prune as a node does.
 */
import type { Page } from '@playwright/test';
import { expect, requests, screenshot, test } from './app.ts';

const transaction = (page: Page) => page.getByRole('region', { name: 'Transaction', exact: true });
const block = (page: Page) => page.getByRole('region', { name: 'Block', exact: true });

/** Opens the account page of a shortcut account and returns its address and its newest transaction's link. */
async function openAccount(page: Page, url: string, name: string) {
  await page.goto(url);
  await page.getByRole('button', { name }).click();
  const address = await page.getByRole('textbox', { name: 'Address' }).inputValue();
  const newest = page.getByRole('region', { name: 'Transactions', exact: true }).getByRole('listitem').first();
  await expect(newest).toBeVisible();
  return { address, newest, link: newest.getByRole('link') };
}

test('from an account to a transaction, to its block, to its neighbours, back to a transaction', async ({ page }) => {
  const { address, newest, link } = await openAccount(page, '/', 'alice');
  await expect(newest).toContainText('#149');
  const hash = (await link.getAttribute('title'))!;
  expect(hash).toMatch(/^0x[0-9a-f]{64}$/);

  // The row's hash is a link to the transaction page (one getTransaction of v3).
  await link.click();
  await expect(transaction(page)).toBeVisible();
  expect(new URL(page.url()).searchParams.get('tx')).toBe(hash);
  await expect(page.getByTestId('tx-hash')).toHaveText(hash);
  await expect(page.getByTestId('tx-kind')).toHaveText('user');
  await expect(page.getByTestId('tx-status')).toHaveText('Success');
  await expect(page.getByTestId('tx-sender')).toHaveText(address);
  await expect(page.getByTestId('tx-sequence-number')).toHaveText('149');
  await expect(page.getByTestId('tx-gas')).toHaveText(/^[\d,]+ used of 500,000 at 100 per unit$/);
  await expect(page.getByTestId('tx-function')).toHaveText('0x1::supra_account::transfer');
  await expect(transaction(page).getByRole('list', { name: 'Arguments' }).getByRole('listitem')).toHaveCount(2);
  const events = transaction(page).getByRole('list', { name: 'Events' }).getByRole('listitem');
  await expect(events.first()).toContainText('0x1::coin::WithdrawEvent');
  await expect(events.nth(1)).toContainText('0x1::coin::DepositEvent');
  expect(await requests(page, 'getTransactionV3')).toBe(1);
  await expect(page.getByRole('region', { name: 'Prices' })).toHaveCount(0); // the account page's, not this one's
  await page.screenshot({ path: screenshot('transaction'), fullPage: true });

  // Its block, slow enough to see the loading state.
  const blockLink = page.getByTestId('tx-block').getByRole('link');
  const height = Number(await blockLink.textContent());
  await expect(page.getByTestId('tx-block').locator('time')).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
  await page.evaluate(() => window.explorer!.nodeStub!.failNext('getBlockByHeightV3', 'slow', 1, { delayMs: 1_000 }));
  await blockLink.click();
  await expect(block(page).getByRole('status')).toHaveText('Loading block…');
  await expect(page.getByTestId('block-hash')).toHaveText(/^0x[0-9a-f]{64}$/);
  expect(new URL(page.url()).searchParams.get('block')).toBe(String(height));
  await expect(page.getByTestId('block-height')).toHaveText(String(height));
  await expect(page.getByTestId('block-time')).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
  await expect(page.getByTestId('block-author')).toHaveText(/^0x[0-9a-f]{64}$/);
  await expect(page.getByTestId('block-epoch-round')).toHaveText(/^\d+ \/ \d+$/);
  await expect(block(page).getByText('User transactions', { exact: true })).toBeVisible();
  const blockHash = await page.getByTestId('block-hash').textContent();
  const parentHash = await page.getByTestId('block-parent').textContent();
  // The transaction is among the block's, linked back.
  const ours = block(page).getByRole('list', { name: 'Transactions of the block' }).locator(`a[title="${hash}"]`);
  await expect(ours).toHaveText(`${hash.slice(0, 8)}…${hash.slice(-6)}`);
  await page.screenshot({ path: screenshot('block'), fullPage: true });

  // The parent is the block one below, whose hash it is; the next block's parent is this one.
  await page.getByTestId('block-parent').getByRole('link').click();
  await expect(page.getByTestId('block-height')).toHaveText(String(height - 1));
  await expect(page.getByTestId('block-hash')).toHaveText(parentHash!);
  await block(page).getByRole('link', { name: `Next block (${height}) →` }).click();
  await expect(page.getByTestId('block-hash')).toHaveText(blockHash!);
  await block(page).getByRole('link', { name: `Next block (${height + 1}) →` }).click();
  await expect(page.getByTestId('block-parent')).toHaveText(blockHash!);
  await block(page).getByRole('link', { name: `← Previous block (${height})` }).click();
  await expect(page.getByTestId('block-hash')).toHaveText(blockHash!);

  // From the block's list back to the transaction; the browser's back button returns to the block.
  await ours.click();
  await expect(page.getByTestId('tx-hash')).toHaveText(hash);
  await expect(page.getByTestId('tx-sequence-number')).toHaveText('149');
  await page.goBack();
  await expect(page.getByTestId('block-hash')).toHaveText(blockHash!);

  // The sender links to its account page.
  await page.goForward();
  await page.getByTestId('tx-sender').getByRole('link').click();
  await expect(page.getByTestId('sequence-number')).toHaveText('150');
  expect(new URL(page.url()).searchParams.get('account')).toBe(address);
});

test('a block of the chain itself: its block_metadata transaction has no sender', async ({ page }) => {
  // Every height without account transactions holds one block_metadata transaction; the stub's account
  // transactions start near height 1,000, so block 1 is such a block.
  await page.goto('/?block=1');
  await expect(page.getByTestId('block-hash')).toBeVisible();
  const rows = block(page).getByRole('list', { name: 'Transactions of the block' }).getByRole('listitem');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('block_metadata');
  await expect(block(page).getByRole('link', { name: /Previous block/ })).toHaveText('← Previous block (0)');
  await rows.first().getByRole('link').click();
  await expect(page.getByTestId('tx-kind')).toHaveText('block_metadata');
  await expect(transaction(page)).toContainText('none (block_metadata transaction)');
  await expect(transaction(page)).toContainText('No entry function');
  await expect(transaction(page)).toContainText('No events.');
  await expect(page.getByTestId('tx-block').getByRole('link')).toHaveText('1');
});

test('an unknown transaction and a block not made yet (404), a bad hash and a bad height (no request)', async ({ page }) => {
  const unknown = `0x${'ab'.repeat(32)}`;
  await page.goto(`/?tx=${unknown}`);
  await expect(transaction(page).getByRole('alert')).toContainText('No such transaction');
  await expect(transaction(page).getByRole('alert')).toContainText('The service answered 404.');
  await expect(transaction(page).getByRole('button', { name: 'Try again' })).toHaveCount(0); // a 404 is an answer
  expect(await requests(page, 'getTransactionV3')).toBe(1);
  await page.screenshot({ path: screenshot('transaction-not-found'), fullPage: true });

  await page.goto('/?block=100000000000');
  await expect(block(page).getByRole('alert')).toContainText('No such block');
  expect(await requests(page, 'getBlockByHeightV3')).toBe(1);

  // Checked by the client before any request: its InvalidArgumentError's message is shown.
  await page.goto('/?tx=0x12');
  await expect(transaction(page).getByRole('alert')).toContainText('Not a valid hash');
  await expect(transaction(page).getByRole('alert')).toContainText('64 hex digits');
  expect(await requests(page, 'getTransactionV3')).toBe(0);
  await page.screenshot({ path: screenshot('transaction-invalid-hash'), fullPage: true });

  await page.goto('/?block=12a');
  await expect(block(page).getByRole('alert')).toContainText('Not a valid height');
  await expect(block(page).getByRole('alert')).toContainText('must be a u64');
  await expect(block(page).getByRole('button', { name: 'Try again' })).toHaveCount(0);
  expect(await requests(page, 'getBlockByHeightV3')).toBe(0);

  // The way back to the account page.
  await page.getByRole('link', { name: '← Accounts and prices' }).click();
  await expect(page.getByText('Enter an address or pick an account.')).toBeVisible();
});

test('a node that pruned its history: a block and a transaction below its oldest block (410)', async ({ page }) => {
  const oldest = 1_000_000;
  await page.goto(`/?oldest-block=${oldest}&block=10`);
  await expect(page.getByText(`history pruned below block ${oldest}`)).toBeVisible();
  await expect(block(page).getByRole('alert')).toContainText('Pruned: the node no longer keeps this history');
  await expect(page.getByTestId('oldest-block')).toHaveText(String(oldest));
  await page.screenshot({ path: screenshot('block-pruned'), fullPage: true });

  // The oldest block kept is there (the link keeps `oldest-block`: the same node).
  await block(page).getByRole('link', { name: String(oldest) }).click();
  await expect(page.getByTestId('block-hash')).toHaveText(/^0x[0-9a-f]{64}$/);
  expect(new URL(page.url()).searchParams.get('oldest-block')).toBe(String(oldest));

  // The account page reads v2, which is not pruned; the transaction by hash (v3) is.
  const { link } = await openAccount(page, `/?oldest-block=${oldest}`, 'alice');
  await link.click();
  await expect(transaction(page).getByRole('alert')).toContainText('Pruned');
  await expect(page.getByTestId('oldest-block')).toHaveText(String(oldest));
});

test('the live shapes read alike: sender { Move }, timestamps as objects, validated', async ({ page }) => {
  const { address, link } = await openAccount(page, '/?shapes=live&validate=live', 'alice');
  await link.click();
  await expect(page.getByTestId('tx-sender')).toHaveText(address);
  await expect(page.getByTestId('tx-block').locator('time')).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
  await page.getByTestId('tx-block').getByRole('link').click();
  await expect(page.getByTestId('block-time')).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
  await expect(block(page).getByRole('list', { name: 'Transactions of the block' }).getByRole('listitem').first()).toBeVisible();
});
