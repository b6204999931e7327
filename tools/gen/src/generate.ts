import type { FileSet } from './files.ts';
import { loadSpecs, ROOT } from './specs.ts';
import { emitTypes } from './emit-types.ts';
import { emitOperations, emitRoutes } from './emit-operations.ts';
import { emitActions, emitQueries } from './emit-actions.ts';
import { emitValidators } from './emit-validators.ts';
import { emitPaging } from './paging.ts';
import { applyLiveOverlay, LIVE_OVERLAY_FILE, loadOverlay } from './live.ts';

/** Everything `pnpm gen` writes, keyed by path. Pure: the same specs and sources give the same bytes. */
export async function generate(root = ROOT): Promise<FileSet> {
  const { node, price } = loadSpecs(root);
  const files: FileSet = new Map();
  // The types of node records are the live reading: what a real node may send (either form where the
  // overlay observed another than the document), so they are true for both.
  const nodeLive = await applyLiveOverlay(node, loadOverlay(root));
  files.set('packages/node-types/src/generated/node-rpc.ts', await emitTypes(nodeLive, `${node.file} and ${LIVE_OVERLAY_FILE}`));
  files.set('packages/node-client/src/generated/operations.ts', emitOperations(node));
  files.set('packages/node-client/src/generated/actions.ts', emitActions(node));
  files.set('packages/node-client/src/generated/queries.ts', emitQueries(node));
  // One paging table from the spec's x-pagination and one route table of both specs, each generated once,
  // into @x/common: the iterators and query options, x-validate, and the stubs all import them from there.
  files.set('packages/common/src/generated/paging.ts', emitPaging(node));
  // The price types have one home, @x/price-types: the client, the validators and the stubs import them.
  files.set('packages/price-types/src/generated/price-history.ts', await emitTypes(price));
  files.set('packages/price-client/src/generated/operations.ts', emitOperations(price));
  files.set('packages/common/src/generated/routes.ts', emitRoutes([node, price]));
  for (const [path, content] of await emitValidators({ node, nodeLive, price })) files.set(path, content);
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : 1)));
}
