import { AccountView } from './account/AccountView.tsx';
import { BlockPage } from './chain/BlockPage.tsx';
import { LiveBlocks } from './chain/LiveBlocks.tsx';
import { TransactionPage } from './chain/TransactionPage.tsx';
import { PricePanel } from './price/PricePanel.tsx';
import { useRoute, type Route } from './route.ts';
import type { Services, Source } from './services.ts';
import { Link } from './ui/Link.tsx';

// The node client's README, section Browsers (CORS).
const BROWSERS = 'https://github.com/x-supra/x-supra-sdk/tree/main/packages/node-client#browsers';

function describe(source: Source, stub: string): string {
  return source.kind === 'stub' ? `${stub}, answered in this page by @x/testing` : source.url;
}

/** The page the URL names: a transaction, a block, or the account page with the prices. */
function Page({ services, route }: { services: Services; route: Route }) {
  if (route.page === 'transaction') return <TransactionPage node={services.node} hash={route.hash} />;
  if (route.page === 'block') return <BlockPage node={services.node} height={route.height} />;
  return (
    <>
      <AccountView services={services} initialAddress={route.address} />
      <LiveBlocks node={services.nodeClient} />
      <PricePanel services={services} />
    </>
  );
}

export function App({ services }: { services: Services }) {
  const route = useRoute();
  const stubbed = services.nodeSource.kind === 'stub' || services.priceSource.kind === 'stub';
  return (
    <>
      <header>
        <h1>Supra explorer</h1>
        <p className="sources">
          Node: <code>{describe(services.nodeSource, 'the in-memory node stub')}</code> · Prices:{' '}
          <code>{describe(services.priceSource, 'the in-memory price stub')}</code>
          {services.options.map((o) => ` · ${o}`)}
        </p>
        {stubbed && (
          <p className="note">
            No server needed: add <code>?node=https://rpc-testnet.supra.com</code> (and <code>&amp;price=</code> your price proxy) to
            the address to use real services. They must allow this page's origin (CORS), and a price API key does not belong in
            a browser: put it in a proxy of your own. See the node client's <a href={BROWSERS}>Browsers</a> section.
          </p>
        )}
        {route.page !== 'account' ? (
          <nav aria-label="Pages">
            <Link to={{ page: 'account', address: '' }}>← Accounts and prices</Link>
          </nav>
        ) : null}
      </header>
      <main>
        <Page services={services} route={route} />
      </main>
    </>
  );
}
