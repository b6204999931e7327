import { useState } from 'react';
import type { Services } from '../services.ts';
import { AccountForm } from './AccountForm.tsx';
import { AccountSummary } from './AccountSummary.tsx';
import { ModuleList } from './Modules.tsx';
import { ResourceList } from './Resources.tsx';
import { CoinTransactionList, TransactionList } from './Transactions.tsx';

/** One account: the address box, then what the node knows of it. The address is kept in `?account=`. */
export function AccountView({ services, initialAddress }: { services: Services; initialAddress: string }) {
  const [address, setAddress] = useState(initialAddress);
  const open = (next: string) => {
    setAddress(next);
    const url = new URL(location.href);
    if (next) url.searchParams.set('account', next);
    else url.searchParams.delete('account');
    history.replaceState(null, '', url);
  };
  const node = services.node;
  return (
    <section aria-labelledby="account-heading" className="panel">
      <h2 id="account-heading">Account</h2>
      <AccountForm address={address} shortcuts={services.shortcuts} onOpen={open} />
      {address ? (
        <div className="account" key={address}>
          <AccountSummary node={node} address={address}>
            <div className="lists">
              <TransactionList node={node} address={address} />
              <CoinTransactionList node={node} address={address} />
              <ModuleList node={node} address={address} />
              <ResourceList node={node} address={address} />
            </div>
          </AccountSummary>
        </div>
      ) : (
        <p className="state empty">Enter an address or pick an account.</p>
      )}
    </section>
  );
}
