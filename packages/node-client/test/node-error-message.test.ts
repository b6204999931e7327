/**
 * nodeErrorMessage: the message of a node's error body, the `Some("...")` of older nodes unwrapped. That
 * it reads adversarial text in linear time is linear-time.perf.test.ts's check (the `perf` project).
 */
import { describe, expect, it } from 'vitest';
import { nodeErrorMessage } from '@x/node-client';

describe('nodeErrorMessage', () => {
  it.each([
    [{ message: 'Account not found' }, 'Account not found'],
    [{ message: ' Some("Account not found: \\"0x2\\"") ' }, 'Account not found: "0x2"'],
    [{ message: 'Some("unclosed' }, 'Some("unclosed'],
    [{ error: 'x' }, undefined],
    ['text', undefined],
  ])('%j -> %j', (body, message) => {
    expect(nodeErrorMessage(body)).toBe(message);
  });
});
