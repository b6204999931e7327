import { sValidator } from '@hono/standard-validator';
import { Hono } from 'hono';
import { expect, it } from 'vitest';
import { AccountData } from '@x/validators/standard';

const app = new Hono().post('/accounts', sValidator('json', AccountData), (c) => {
  const account = c.req.valid('json'); // typed as AccountData
  return c.json({ sequence_number: account.sequence_number });
});

const post = (body: unknown) =>
  app.request('/accounts', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

it('answers 200 for a valid body, 400 with the issues for an invalid one', async () => {
  const ok = await post({ sequence_number: 7, authentication_key: '0x1' });
  expect(ok.status).toBe(200);
  expect(await ok.json()).toEqual({ sequence_number: 7 });

  const bad = await post({ sequence_number: '7', authentication_key: '0x1' });
  expect(bad.status).toBe(400);
  expect(await bad.json()).toMatchObject({ success: false, error: [{ message: 'must be integer', path: ['sequence_number'] }] });
});
