import type { FileSet } from './files.ts';
import { loadSpecs, ROOT } from './specs.ts';
import { emitTypes } from './emit-types.ts';
import { emitService, operationTable } from './emit-operations.ts';
import { emitActions } from './emit-actions.ts';
import { emitQueries, emitQueryTables } from './emit-queries.ts';
import { emitValidators } from './emit-validators.ts';
import { emitSamples } from './emit-samples.ts';
import { applyLiveOverlay, LIVE_OVERLAY_FILE, loadOverlay } from './live.ts';

/** Everything `pnpm gen` writes, keyed by path. Pure: the same specs and sources give the same bytes. */
export async function generate(root = ROOT): Promise<FileSet> {
  const { node, price } = loadSpecs(root);
  const files: FileSet = new Map();
  // The types of node records are the live reading: what a real node may send (either form where the
  // overlay observed another than the document), so they are true for both.
  const nodeLive = await applyLiveOverlay(node, loadOverlay(root));
  files.set('packages/node-types/src/generated/node-rpc.ts', await emitTypes(nodeLive, `${node.file} and ${LIVE_OVERLAY_FILE}`));
  for (const [path, content] of emitActions(node)) files.set(path, content);
  files.set('packages/node-client/src/generated/queries.ts', emitQueries(node));
  files.set('packages/node-client/src/generated/query-tables.ts', emitQueryTables(node));
  // One operation table per service, in @x/common: the clients' actions and query options import its
  // entries, and @x/common's route table and paging table (matchRoute, the stubs, x-validate) are read
  // from it.
  for (const spec of [node, price]) files.set(`packages/common/src/generated/${spec.name}.ts`, emitService(spec));
  const clash = Object.keys(operationTable(node)).filter((id) => id in operationTable(price));
  if (clash.length > 0) throw new Error(`${node.file} and ${price.file} both have ${clash.join(', ')}: an operationId must be unique across the specs (@x/common exports each entry by its id)`);
  // The price types have one home, @x/price-types: the client, the validators and the stubs import them.
  files.set('packages/price-types/src/generated/price-history.ts', await emitTypes(price));
  for (const [path, content] of await emitValidators({ node, nodeLive, price })) files.set(path, content);
  // The stubs' answer to an operation they have no handler for yet: a sample of its 200 schema.
  files.set('packages/testing/src/generated/samples.ts', emitSamples([node, price]));
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : 1)));
}
