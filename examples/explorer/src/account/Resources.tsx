import { useInfiniteQuery } from '@tanstack/react-query';
import type { NodeQueries } from '@x/node-client/query';
import { InfiniteList } from '../ui/InfiniteList.tsx';
import { JsonDetails } from '../ui/JsonDetails.tsx';

/** The account's resources, each with its data as JSON. */
export function ResourceList({ node, address }: { node: NodeQueries; address: string }) {
  const query = useInfiniteQuery({
    ...node.v2.resources(address, { pageSize: 20 }),
    select: (data) => data.pages.flatMap((page) => page.resources),
  });
  return (
    <InfiniteList title="Resources" query={query} empty="No resources." itemKey={(r) => r.type}>
      {(r) => <JsonDetails type={r.type} data={r.data} />}
    </InfiniteList>
  );
}
