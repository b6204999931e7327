import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { isNotFound } from '@x/node-client';
import type { NodeQueries } from '@x/node-client/query';
import { ErrorState, Loading } from '../ui/ErrorState.tsx';
import { units } from '../ui/format.ts';

export const COIN_STORE = '0x1::coin::CoinStore<0x1::supra_coin::SupraCoin>';
/** SUPRA has 8 decimals (`0x1::coin::CoinInfo<0x1::supra_coin::SupraCoin>`). */
const DECIMALS = 8;

/** `coin.value` of a CoinStore's data, the u64 as the node's JSON mapping sends it (a string). */
function coinValue(data: Record<string, unknown>): string | undefined {
  const coin = data.coin as { value?: unknown } | undefined;
  return typeof coin?.value === 'string' || typeof coin?.value === 'number' ? String(coin.value) : undefined;
}

function Balance({ node, address }: { node: NodeQueries; address: string }) {
  const store = useQuery(node.v2.getResource(address, COIN_STORE));
  if (store.isPending) return <Loading what="balance" />;
  if (isNotFound(store.error)) return <span className="muted">none (no SUPRA CoinStore)</span>;
  if (store.error) return <ErrorState error={store.error} />;
  const value = coinValue(store.data.data);
  return <>{value === undefined ? 'unreadable' : `${units(value, DECIMALS)} SUPRA`}</>;
}

/** Sequence number, authentication key and balance; `children` (the lists) only once the account exists. */
export function AccountSummary({ node, address, children }: { node: NodeQueries; address: string; children: ReactNode }) {
  const account = useQuery(node.v2.getAccount(address));
  if (account.isPending) return <Loading what="account" />;
  if (account.error) return <ErrorState error={account.error} notFound="No such account" onRetry={() => void account.refetch()} />;
  return (
    <>
      <dl className="summary">
        <div>
          <dt>Sequence number</dt>
          <dd data-testid="sequence-number">{account.data.sequence_number}</dd>
        </div>
        <div>
          <dt>Authentication key</dt>
          <dd>
            <code>{account.data.authentication_key}</code>
          </dd>
        </div>
        <div>
          <dt>Balance</dt>
          <dd data-testid="balance">
            <Balance node={node} address={address} />
          </dd>
        </div>
      </dl>
      {children}
    </>
  );
}
