/**
 * Several nodes in the browser (the built client, in Chromium, on a page of another origin than the
 * stub): a dead origin first in the list (`http://127.0.0.1:1`, which Chromium refuses outright as an
 * unsafe port, as it would a node that is down: a TypeError from fetch) moves calls and walks to the
 * live stub, the dead origin then rests, and a list of dead origins ends in a NodesFailedError.
 */
import { describe, expect, inject, it } from 'vitest';
import { ClientError, createNodeClient, NetworkError, NodesFailedError, type AttemptInfo } from '@x/node-client';
import { rejection } from './helpers.ts';

const nodeUrl = inject('nodeUrl');
const { alice } = inject('accounts');
const facts = inject('facts');
const DEAD = 'http://127.0.0.1:1';
const DEAD_TOO = 'http://127.0.0.1:9';

const summary = (attempts: AttemptInfo[]): [string, string, number | string | undefined][] => attempts.map((a) => [a.kind, a.node, a.status ?? a.error]);

describe('several nodes, the first a dead origin', () => {
  it('a call falls back to the live stub; the dead origin then rests', async () => {
    const attempts: AttemptInfo[] = [];
    const node = createNodeClient({ baseUrl: [DEAD, nodeUrl], retry: { baseDelayMs: 5_000 }, onAttempt: (a) => attempts.push(a) });
    expect((await node.v2.getAccount(alice)).sequence_number).toBe(facts.alice.sent);
    expect(summary(attempts)).toEqual([
      ['first', DEAD, 'NetworkError'],
      ['fallback', nodeUrl, 200],
    ]);
    await node.v2.getAccount(alice);
    expect(summary(attempts.slice(2))).toEqual([['first', nodeUrl, 200]]);
  });

  it('a walk goes on the live stub: every transaction once', async () => {
    const node = createNodeClient({ baseUrl: [DEAD, nodeUrl] });
    const seen: number[] = [];
    for await (const tx of node.v2.transactions(alice, { pageSize: 40, concurrency: 2 })) seen.push(tx.header.sequence_number);
    expect(seen).toEqual(Array.from({ length: facts.alice.sent }, (_, i) => i));
  });

  it('every origin dead: NodesFailedError naming each, with their NetworkErrors', async () => {
    const node = createNodeClient({ baseUrl: [DEAD, `${DEAD_TOO}/`], retry: false });
    const err = await rejection(node.v2.getAccount(alice));
    expect(err).toBeInstanceOf(NodesFailedError);
    expect(err).toBeInstanceOf(ClientError);
    const e = err as NodesFailedError;
    expect(e.code).toBe('NODES_FAILED');
    expect(e.name).toBe('NodesFailedError');
    expect(e.attempts.map((a) => a.url)).toEqual([DEAD, DEAD_TOO]);
    for (const a of e.attempts) expect(a.error).toBeInstanceOf(NetworkError);
    expect(e.message).toContain(DEAD);
    expect(e.message).toContain(DEAD_TOO);
  });
});
