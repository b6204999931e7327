import { describe, expect, it } from 'vitest';
import { applyLiveOverlay, loadOverlay, type Overlay, type OverlayAction } from '../src/live.ts';
import { loadSpecs } from '../src/specs.ts';

const { node } = loadSpecs();
const overlay = loadOverlay();
const live = await applyLiveOverlay(node, overlay);

const action = (patch: Partial<OverlayAction>): OverlayAction => ({
  'x-id': 'probe',
  'x-source': 'test',
  target: '$.components.schemas.Hash',
  update: { 'x-observed': { type: 'string' } },
  ...patch,
});
const withAction = (a: unknown): Overlay => ({ ...overlay, actions: [...overlay.actions, a as OverlayAction] });

describe('the live overlay', () => {
  it('states every difference of LIVE-SHAPES.md, one action each, with an id and a source', () => {
    expect(overlay.overlay).toBe('1.0.0');
    expect(overlay.actions.map((a) => a['x-id'])).toEqual([
      'timestamp',
      'sender',
      'event-guid',
      'event-sequence-number',
      'module-name',
      'module-friends',
      'module-functions',
      'module-structs',
      'v1-list-cursor',
      'v1-resource-value',
      'error-body',
    ]);
    for (const a of overlay.actions) expect(a['x-source']).toMatch(/\bS[123]\b/);
  });

  it('leaves the documented spec alone and makes each changed node accept either form', () => {
    expect(JSON.stringify(node.doc)).not.toContain('x-observed');
    expect(JSON.stringify(live.doc)).not.toContain('x-observed');
    expect(live.sites.map((s) => s.pointer)).toContain('#/components/schemas/SmrTimestamp');
    const ts = live.doc.components.schemas.SmrTimestamp as { anyOf: unknown[]; 'x-live-forms': unknown };
    expect(ts.anyOf[0]).toEqual(node.doc.components.schemas.SmrTimestamp);
    expect(ts['x-live-forms']).toEqual({ actions: ['timestamp'] });
    const sender = (live.doc.components.schemas.SmrTransactionHeader as { properties: Record<string, { description?: string; anyOf: unknown[] }> }).properties.sender!;
    expect(sender.description).toBe('Sender account address.');
    expect(sender.anyOf[0]).toEqual({ $ref: '#/components/schemas/AccountAddress' });
  });

  it.each([
    ['a target that matches nothing', action({ target: '$.components.schemas.Nope' }), /action "probe": target \$\.components\.schemas\.Nope matches nothing/],
    ['an observed form that is no schema', action({ update: { 'x-observed': { type: 'text' } } }), /action "probe": the observed form is not a valid JSON Schema/],
    ['a $ref that resolves to nothing', action({ update: { 'x-observed': { $ref: '#/components/schemas/Gone' } } }), /action "probe": \$ref #\/components\/schemas\/Gone resolves to nothing/],
    ['a node another action changed', action({ target: '$.components.schemas.SmrTimestamp' }), /action "probe": target .* is a node another action already changed/],
    ['a duplicate id', action({ 'x-id': 'timestamp' }), /action "timestamp": its `x-id` is used by another action/],
    ['no id', { ...action({}), 'x-id': undefined }, /action #12: needs an `x-id`/],
    ['no source', action({ 'x-source': ' ' }), /action "probe": needs an `x-source`/],
    ['a remove', { ...action({}), remove: true }, /action "probe": removes/],
    ['an update of something else', action({ update: { description: 'x' } as never }), /action "probe": must update exactly `x-observed`/],
  ])('fails pnpm gen on %s, naming the action', async (_what, a, message) => {
    await expect(applyLiveOverlay(node, withAction(a))).rejects.toThrow(message);
  });

  it('fails on a document that is not an Overlay 1.0', async () => {
    await expect(applyLiveOverlay(node, { ...overlay, overlay: '2.0.0' })).rejects.toThrow(/not an OpenAPI Overlay 1\.0 document/);
  });
});
