/**
 * The live block list as a TanStack query, the node client README's pattern ("TanStack Query: a live block
 * list"): `streamedQuery` over `node.watchBlocks({ headersOnly: true })`, whose data grows as the node
 * commits blocks. The watch's code is a chunk the client loads on its first call; the last observer
 * leaving aborts the signal, which closes the socket.
 */
import { experimental_streamedQuery as streamedQuery, queryOptions } from '@tanstack/react-query';
import type { NodeClient } from '@x/node-client';
import type { BlockHeaderInfo } from '@x/node-types';

/** How many of the newest blocks the list keeps. */
export const LIVE_BLOCKS = 10;

/** The {@link LIVE_BLOCKS} newest block headers, newest first, from the next block the node makes on. */
export function liveBlocksQuery(node: NodeClient) {
  return queryOptions({
    queryKey: ['node', node.baseUrls, 'blocks', 'live'],
    queryFn: streamedQuery({
      streamFn: ({ signal }) => node.watchBlocks({ headersOnly: true, signal }),
      reducer: (newest: BlockHeaderInfo[], header: BlockHeaderInfo) => [header, ...newest].slice(0, LIVE_BLOCKS),
      initialValue: [],
    }),
    // The stream keeps it fresh: no refetch on mount or focus.
    staleTime: Infinity,
  });
}
