/**
 * The accounts of the synthetic chain and what each one sent. Addresses and counts are fixed (they do not
 * depend on the seed), so client tests can rely on them; the seed decides timing, interleaving, block
 * packing, amounts, gas and hashes.
 */
import { mulberry32 } from '../random.ts';

/**
 * Addresses of the stub's accounts, in the canonical form every response uses (`0x1` short, others
 * `0x` + 64 hex). Requests may use any form: with or without `0x`, any case, leading zeros stripped.
 */
export const STUB_ACCOUNTS = {
  /** Framework account: 16 modules, 6 resources, 40 system transactions (Dkg, Oracle, Empty outputs). */
  framework: '0x1',
  /** 2,500 sent transactions (transfers, failed transfers, entry calls); receives transfers too. */
  busy: '0x9ece99f2b92025e07d73587bf4ea3f0578de7cd15fa5bddf2a98879b1f94fbf4',
  /** 150 sent transactions; sends to and receives from the others. */
  alice: '0xc6010ea4b1c9db9a02ef6dd10d3659a5c684471f887511669e0816b2fbffb97d',
  /** 90 sent transactions; sends to and receives from the others. */
  bob: '0xc8d6d1b0bf57f2aa68e7239e34c945ae8231e838e1c2338715ff49260a4980ae',
  /** 45 published modules, 29 resources (nested type tags, every kind of Move value), 60 sent. */
  publisher: '0x937c08cb2d82af811f0ed3facd70a87286465a69b0fa90493863d61864658bbf',
  /** Exactly 100 sent transactions, all successful coin transfers; receives nothing (100 coin transactions). */
  exactly100: '0x66a4620544ec1452466e13180c80ff7ebf4951c7d1cdb8e15f6a86f870d46386',
  /** Exactly 101 (as exactly100). Its address has leading zeros, to exercise normalisation. */
  exactly101: '0x000087f4a354bc05b730176f7d1afcb51c121fd222defe4b9cbe6bc27e7afff6',
  /** Exactly 200 (as exactly100). */
  exactly200: '0xe1c3be1fc894ca796602e620e5113aee2c5533149c04181e63d2825ccf877385',
  /** Sent nothing (sequence number 0, no transactions) but received transfers (coin transactions). */
  receiveOnly: '0x573dfec2c4bf8cf9596fd51deb84cf320de8ac9c03cdf9f9f352dd2381e6fa39',
  /** Exists (getAccount answers, sequence number 0) but every listing is empty. */
  empty: '0xf1cbe10919d7f30c36c3c7c672822338db11fa74a4f799de43cabfeb86d9e415',
  /** Not on the chain: v1 answers null / empty listings, v2 answers 404. */
  unknown: '0x3406ee87f9f9a2384a69d60ba9e1ba10e19d144bac6486bf4eb5ea6e3e666a64',
} as const;

export type AccountName = keyof typeof STUB_ACCOUNTS;
/** Accounts that exist on the chain (all but `unknown`). */
export type ChainAccountName = Exclude<AccountName, 'unknown'>;

export const CHAIN_ACCOUNTS: readonly ChainAccountName[] = [
  'framework',
  'busy',
  'alice',
  'bob',
  'publisher',
  'exactly100',
  'exactly101',
  'exactly200',
  'receiveOnly',
  'empty',
];

/** What a sent transaction does (seed-independent). */
export type Intent =
  /** A coin transfer; `ok: false` aborts (no Withdraw/Deposit, so it is not a coin transaction). */
  | { kind: 'transfer'; to: ChainAccountName; ok: boolean }
  /** An entry call to the publisher's `counter::increment`. */
  | { kind: 'call' }
  /** Publishes one of the publisher's modules. */
  | { kind: 'publish'; module: string }
  /** System transactions of the framework account. */
  | { kind: 'dkg' }
  | { kind: 'oracle'; ok: boolean }
  | { kind: 'meta' };

/** The publisher's 45 modules (sorted by name is the listing order). */
export const PUBLISHER_MODULES: readonly string[] = [
  'amm_pool',
  'amm_router',
  'coins',
  'counter',
  'registry',
  'showcase',
  'staking',
  'vault',
  ...Array.from({ length: 37 }, (_, i) => `feature_${String(i).padStart(2, '0')}`),
];

function pick<T>(rng: () => number, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)] as T;
}

/** Sent transactions of every account, in sequence-number order. Fixed: uses its own constant seed. */
function buildPlans(): Record<ChainAccountName, Intent[]> {
  const rng = mulberry32(0x5eed51ab);
  const plans = {} as Record<ChainAccountName, Intent[]>;
  for (const name of CHAIN_ACCOUNTS) plans[name] = [];

  for (let i = 0; i < 40; i++) {
    const m = i % 5;
    plans.framework.push(m < 2 ? { kind: 'dkg' } : m < 4 ? { kind: 'oracle', ok: i % 7 !== 3 } : { kind: 'meta' });
  }
  const busyTargets: ChainAccountName[] = ['alice', 'bob', 'receiveOnly', 'publisher'];
  for (let i = 0; i < 2500; i++) {
    const r = rng();
    if (r < 0.04) plans.busy.push({ kind: 'transfer', to: pick(rng, busyTargets), ok: false });
    else if (r < 0.15) plans.busy.push({ kind: 'call' });
    else plans.busy.push({ kind: 'transfer', to: pick(rng, busyTargets), ok: true });
  }
  const userPlan = (n: number, targets: ChainAccountName[]): Intent[] =>
    Array.from({ length: n }, (): Intent => {
      const r = rng();
      if (r < 0.05) return { kind: 'transfer', to: pick(rng, targets), ok: false };
      if (r < 0.15) return { kind: 'call' };
      return { kind: 'transfer', to: pick(rng, targets), ok: true };
    });
  plans.alice = userPlan(150, ['busy', 'busy', 'bob', 'receiveOnly']);
  plans.bob = userPlan(90, ['busy', 'busy', 'alice', 'receiveOnly']);
  plans.publisher = [
    ...PUBLISHER_MODULES.map((module): Intent => ({ kind: 'publish', module })),
    ...Array.from({ length: 15 }, (): Intent => ({ kind: 'transfer', to: 'busy', ok: true })),
  ];
  const sinks: ChainAccountName[] = ['alice', 'bob', 'receiveOnly'];
  const exact = (n: number): Intent[] =>
    Array.from({ length: n }, (_, i): Intent => ({ kind: 'transfer', to: sinks[i % sinks.length] as ChainAccountName, ok: true }));
  plans.exactly100 = exact(100);
  plans.exactly101 = exact(101);
  plans.exactly200 = exact(200);
  return plans;
}

export const PLANS: Readonly<Record<ChainAccountName, readonly Intent[]>> = buildPlans();
