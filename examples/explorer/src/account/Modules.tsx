import { useInfiniteQuery } from '@tanstack/react-query';
import type { MoveModule } from '@x/node-client';
import type { NodeQueries } from '@x/node-client/query';
import { moduleFunctions } from '@x/node-client/shapes';
import { InfiniteList } from '../ui/InfiniteList.tsx';

/** A module's name: a string (live nodes) or the document's open object (`{ identifier }` on the stub). */
function moduleName(abi: MoveModule): string {
  if (typeof abi.name === 'string') return abi.name;
  const identifier = (abi.name as { identifier?: unknown }).identifier;
  return typeof identifier === 'string' ? identifier : JSON.stringify(abi.name);
}

function ModuleRow({ abi }: { abi: MoveModule }) {
  const functions = moduleFunctions(abi);
  return (
    <details>
      <summary>
        <code>{moduleName(abi)}</code> <span className="muted">({functions.length} functions)</span>
      </summary>
      <ul className="functions">
        {functions.map((f) => (
          <li key={f.name}>
            <code>
              {f.visibility} fun {f.name}({f.params.join(', ')}){f.return.length ? `: ${f.return.join(', ')}` : ''}
            </code>
            {f.is_entry ? <span className="tag">entry</span> : null}
            {f.is_view ? <span className="tag">view</span> : null}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** The account's published modules and the functions each exposes. */
export function ModuleList({ node, address }: { node: NodeQueries; address: string }) {
  const query = useInfiniteQuery({
    ...node.v2.modules(address, { pageSize: 20 }),
    select: (data) => data.pages.flatMap((page) => page.modules.map((m) => m.abi)),
  });
  return (
    <InfiniteList title="Modules" query={query} empty="No modules published." itemKey={(abi) => moduleName(abi)}>
      {(abi) => <ModuleRow abi={abi} />}
    </InfiniteList>
  );
}
