import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { openapiOverlay } from 'openapi-format';
import { parse } from 'yaml';
import type { OpenApiDocument, Spec } from './specs.ts';
import { ROOT } from './specs.ts';

/** The overlay of what live nodes send (OpenAPI Overlay 1.0), next to the spec it extends. */
export const LIVE_OVERLAY_FILE = 'specs/node-rpc.live-overlay.yaml';

/** Extension an overlay action adds to the documented node it concerns: the observed form. */
export const OBSERVED = 'x-observed';
/** Extension of a node of the live reading that accepts either form: `{ actions: [id, ...] }`. */
export const LIVE_TAG = 'x-live-forms';

/** One action of the overlay, as the generator reads it. */
export type OverlayAction = {
  'x-id': string;
  'x-source': string;
  description?: string;
  target: string;
  update: { [OBSERVED]: unknown };
};

export type Overlay = { overlay: string; info: Record<string, unknown>; extends?: string; actions: OverlayAction[] };

/** A node of the live reading where both forms are accepted, by its JSON pointer in the spec. */
export type LiveSite = { pointer: string; action: OverlayAction };

export type LiveSpec = Spec & { overlay: Overlay; sites: LiveSite[] };

export function loadOverlay(root = ROOT): Overlay {
  return parse(readFileSync(join(root, LIVE_OVERLAY_FILE), 'utf8')) as Overlay;
}

const ID = /^[a-z0-9]+(-[a-z0-9]+)*$/;

function fail(action: Partial<OverlayAction> | undefined, index: number, why: string): never {
  const name = typeof action?.['x-id'] === 'string' ? `"${action['x-id']}"` : `#${index + 1}`;
  throw new Error(`${LIVE_OVERLAY_FILE}: action ${name}: ${why}`);
}

/** The actions' own rules (the overlay document's shape and this project's convention). */
function checkActions(overlay: Overlay): void {
  if (typeof overlay?.overlay !== 'string' || !/^1\.0\.\d+$/.test(overlay.overlay)) {
    throw new Error(`${LIVE_OVERLAY_FILE}: not an OpenAPI Overlay 1.0 document (overlay: ${String(overlay?.overlay)})`);
  }
  if (!Array.isArray(overlay.actions) || overlay.actions.length === 0) throw new Error(`${LIVE_OVERLAY_FILE}: no actions`);
  const ids = new Set<string>();
  overlay.actions.forEach((a, i) => {
    if (typeof a?.['x-id'] !== 'string' || !ID.test(a['x-id'])) fail(a, i, 'needs an `x-id` in kebab-case');
    if (ids.has(a['x-id'])) fail(a, i, 'its `x-id` is used by another action');
    ids.add(a['x-id']);
    if (typeof a['x-source'] !== 'string' || a['x-source'].trim() === '') fail(a, i, 'needs an `x-source`');
    if (typeof a.target !== 'string' || !a.target.startsWith('$.')) fail(a, i, 'needs a JSONPath `target`');
    if ('remove' in a) fail(a, i, 'removes; the live reading only adds observed forms');
    const keys = a.update && typeof a.update === 'object' ? Object.keys(a.update) : [];
    if (keys.length !== 1 || keys[0] !== OBSERVED) fail(a, i, `must update exactly \`${OBSERVED}\``);
  });
}

/** A JSON pointer segment. */
const seg = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Every object node holding `x-observed`, with its pointer. */
function findObserved(value: unknown, pointer: string, out: { pointer: string; node: Record<string, unknown> }[]): void {
  if (Array.isArray(value)) {
    value.forEach((v, i) => findObserved(v, `${pointer}/${i}`, out));
  } else if (value && typeof value === 'object') {
    const node = value as Record<string, unknown>;
    if (OBSERVED in node) out.push({ pointer, node });
    for (const [k, v] of Object.entries(node)) if (k !== OBSERVED) findObserved(v, `${pointer}/${seg(k)}`, out);
  }
}

/** Keywords kept on the node that unites the two forms rather than copied into the documented branch. */
const OUTER = ['description', 'deprecated', 'title'];

/**
 * Applies the overlay to the documented node spec, one action at a time (openapi-format's Overlay 1.0
 * applier), and builds the live reading: each node an action gave an `x-observed` form becomes
 * `{ anyOf: [documented, observed], x-live-forms: { actions: [id] } }`. Throws, naming the action, when
 * an action breaks the overlay's rules, matches nothing, meets a node another action already changed, or
 * yields a schema that is not valid JSON Schema 2020-12 or has a `$ref` that resolves to nothing.
 */
export async function applyLiveOverlay(documented: Spec, overlay: Overlay = loadOverlay()): Promise<LiveSpec> {
  checkActions(overlay);
  let doc = structuredClone(documented.doc) as OpenApiDocument;
  const sites: LiveSite[] = [];
  const seen = new Set<string>();
  for (const [i, action] of overlay.actions.entries()) {
    const one = { overlay: overlay.overlay, info: overlay.info, actions: [action] };
    const result = await quietly(() => openapiOverlay(doc as never, { overlaySet: one as never }));
    if (result.resultData.totalUsedActions !== 1) fail(action, i, `target ${action.target} matches nothing`);
    doc = result.data as unknown as OpenApiDocument;
    const found: { pointer: string; node: Record<string, unknown> }[] = [];
    findObserved(doc, '#', found);
    const added = found.filter((f) => !seen.has(f.pointer));
    for (const f of added) {
      seen.add(f.pointer);
      sites.push({ pointer: f.pointer, action });
    }
    if (added.length === 0) fail(action, i, `target ${action.target} is a node another action already changed`);
  }
  const found: { pointer: string; node: Record<string, unknown> }[] = [];
  findObserved(doc, '#', found);
  for (const { pointer, node } of found) {
    const site = sites.find((s) => s.pointer === pointer)!;
    const observed = node[OBSERVED];
    const documentedForm: Record<string, unknown> = {};
    const outer: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === OBSERVED) continue;
      (OUTER.includes(k) ? outer : documentedForm)[k] = v;
      Reflect.deleteProperty(node, k);
    }
    Reflect.deleteProperty(node, OBSERVED);
    Object.assign(node, outer, { anyOf: [documentedForm, observed], [LIVE_TAG]: { actions: [site.action['x-id']] } });
  }
  checkLiveSchemas(doc, sites, overlay);
  return { ...documented, doc, overlay, sites };
}

/** openapi-format reports some problems with console.error; the generator reports them itself. */
async function quietly<T>(run: () => Promise<T>): Promise<T> {
  const error = console.error;
  console.error = () => {};
  try {
    return await run();
  } finally {
    console.error = error;
  }
}

function resolvePointer(doc: unknown, ref: string): unknown {
  let cur: unknown = doc;
  for (const raw of ref.replace(/^#\/?/, '').split('/')) {
    if (raw === '') continue;
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!cur || typeof cur !== 'object' || !(key in cur)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

function refsIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => refsIn(v, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refsIn(v, out);
    }
  }
  return out;
}

/** Every observed form is a valid JSON Schema 2020-12 whose `$ref`s resolve in the live spec. */
function checkLiveSchemas(doc: OpenApiDocument, sites: LiveSite[], overlay: Overlay): void {
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  for (const site of sites) {
    const node = resolvePointer(doc, site.pointer) as { anyOf: unknown[] };
    const observed = node.anyOf[1];
    const index = overlay.actions.indexOf(site.action);
    if (!ajv.validateSchema(observed as object)) {
      fail(site.action, index, `the observed form is not a valid JSON Schema: ${ajv.errorsText(ajv.errors)}`);
    }
    for (const ref of refsIn(observed)) {
      if (!ref.startsWith('#/') || resolvePointer(doc, ref) === undefined) fail(site.action, index, `$ref ${ref} resolves to nothing`);
    }
  }
}
