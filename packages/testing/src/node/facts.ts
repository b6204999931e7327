import { CHAIN_ACCOUNTS, PLANS, STUB_ACCOUNTS, type ChainAccountName } from './accounts.ts';
import { modulesOf } from './modules.ts';
import { resourcesOf } from './resources.ts';

/** Counts of a chain account that hold for every seed. */
export interface AccountFacts {
  address: string;
  /** Finalized transactions the account sent = its `sequence_number` = length of its transactions listing. */
  sent: number;
  /** Length of its coin_transactions listing: successful transfers it sent plus those it received. */
  coinTransactions: number;
  modules: number;
  resources: number;
}

function computeFacts(): Record<ChainAccountName, AccountFacts> {
  const coin = {} as Record<ChainAccountName, number>;
  for (const name of CHAIN_ACCOUNTS) coin[name] = 0;
  for (const name of CHAIN_ACCOUNTS) {
    for (const intent of PLANS[name]) {
      if (intent.kind === 'transfer' && intent.ok) {
        coin[name]++;
        if (intent.to !== name) coin[intent.to]++;
      }
    }
  }
  const facts = {} as Record<ChainAccountName, AccountFacts>;
  for (const name of CHAIN_ACCOUNTS) {
    facts[name] = {
      address: STUB_ACCOUNTS[name],
      sent: PLANS[name].length,
      coinTransactions: coin[name],
      modules: modulesOf(name, 0).length,
      resources: resourcesOf(name).length,
    };
  }
  return facts;
}

/** Seed-independent facts of every account on the chain (all of STUB_ACCOUNTS but `unknown`). */
export const STUB_ACCOUNT_FACTS: Readonly<Record<ChainAccountName, AccountFacts>> = computeFacts();
