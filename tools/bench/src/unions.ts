/**
 * Benchmark 5, union encodings: the exclusive unions of the node spec compiled two ways, on the same
 * valid values taken from the stub.
 *
 * - A, `oneOf`: ajv 8 (the root devDependency, compiled here, in this process) on the spec's schemas as
 *   written (`collect()` of tools/gen: only `$ref`s relinked to `#/$defs`), with the options of the
 *   generator that change speed (`messages: false`, `ownProperties`, `inlineRefs: false`, first error
 *   only, no format assertions, unevaluated/dynamicRef tracking off).
 * - B, keyed: the generated validators users get, `isX(value)` of `@x/validators` (lenient; one call of
 *   the standalone function, no error objects built for valid values). They also run the `unsafeInteger`
 *   checks the spec's schemas lack, so B does a little more work than A.
 *
 * Values: `TransactionOutput` — the 100 outputs of the busy page and the 40 of `0x1` (Dkg, Oracle,
 * "Empty"); `TypeTag` — `{ struct: tag }` of every resource the v1 listings of `publisher` and `0x1` name
 * (nested type arguments up to `vector<vector<Coin<SupraCoin>>>`), `{ vector: ... }` nestings and the
 * primitive forms; `MoveValue` — every non-null item of the v1 `getResource` answers of the publisher's
 * resources (all twelve forms).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { isMoveValue, isTransactionOutput, isTypeTag } from '@x/validators';
import { STUB_ACCOUNTS } from '@x/testing';
import { loadSpecs } from '../../gen/src/specs.ts';
import { collect } from '../../gen/src/validators/collect.ts';
import { measureSync, median, pairedRatio } from './harness.ts';
import type { Row } from './report.ts';

export type UnionName = 'TransactionOutput' | 'TypeTag' | 'MoveValue';
export type UnionValues = Record<UnionName, unknown[]>;

async function json(url: string): Promise<unknown> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${res.status} from ${url}`);
  return res.json();
}

type StructTag = { address: string; module: string; name: string; type_args: unknown[] };
type V1Resources = { Resources: { resource: [string, StructTag][] } };

export async function unionValues(stubUrl: string): Promise<UnionValues> {
  const { busy, publisher, framework } = STUB_ACCOUNTS;
  const outputs: unknown[] = [];
  for (const address of [busy, framework]) {
    const page = (await json(`${stubUrl}/rpc/v2/accounts/${address}/transactions?count=100&start=0`)) as { record: { output: unknown }[] };
    outputs.push(...page.record.map((tx) => tx.output));
  }
  const typeTags: unknown[] = ['bool', 'u8', 'u16', 'u32', 'u64', 'u128', 'u256', 'address', 'signer', { vector: 'u8' }, { vector: { vector: 'u64' } }];
  const resourceTypes: string[] = [];
  for (const address of [publisher, framework]) {
    const list = (await json(`${stubUrl}/rpc/v1/accounts/${address}/resources?count=100`)) as V1Resources;
    for (const [name, tag] of list.Resources.resource) {
      typeTags.push({ struct: tag });
      if (address === publisher) resourceTypes.push(name);
    }
  }
  typeTags.push({ vector: typeTags.at(-1) });
  const moveValues: unknown[] = [];
  for (const type of resourceTypes) {
    const r = (await json(`${stubUrl}/rpc/v1/accounts/${publisher}/resources/${encodeURIComponent(type)}`)) as { result: unknown[] };
    moveValues.push(...r.result.filter((v) => v !== null));
  }
  return { TransactionOutput: outputs, TypeTag: typeTags, MoveValue: moveValues };
}

/** The spec's unions as written, compiled by ajv in this process. */
function oneOfValidators(): Record<UnionName, (v: unknown) => boolean> {
  const { schemas } = collect(loadSpecs());
  const $defs: Record<string, unknown> = {};
  for (const s of schemas) $defs[s.name] = s.schema;
  const ajv = new Ajv2020({
    strict: false,
    validateFormats: false,
    allowUnionTypes: true,
    messages: false,
    ownProperties: true,
    inlineRefs: false,
    allErrors: false,
  });
  const opts = ajv.opts as { unevaluated?: boolean; dynamicRef?: boolean };
  opts.unevaluated = false;
  opts.dynamicRef = false;
  ajv.addSchema({ $id: 'spec', $defs });
  const get = (name: UnionName): ((v: unknown) => boolean) => {
    const fn = ajv.getSchema(`spec#/$defs/${name}`);
    if (!fn) throw new Error(`no schema ${name} in the spec`);
    return (v) => fn(v) as boolean;
  };
  return { TransactionOutput: get('TransactionOutput'), TypeTag: get('TypeTag'), MoveValue: get('MoveValue') };
}

const KEYED: Record<UnionName, (v: unknown) => boolean> = {
  TransactionOutput: (v) => isTransactionOutput(v),
  TypeTag: (v) => isTypeTag(v),
  MoveValue: (v) => isMoveValue(v),
};

export function benchUnions(values: UnionValues, rounds: number): Row[] {
  const oneOf = oneOfValidators();
  const rows: Row[] = [];
  for (const name of Object.keys(values) as UnionName[]) {
    const set = values[name];
    for (const v of set) {
      if (!oneOf[name](v) || !KEYED[name](v)) throw new Error(`${name}: a value one encoding rejects: ${JSON.stringify(v)}`);
    }
    const a = oneOf[name];
    const b = KEYED[name];
    const t = measureSync(
      {
        oneOf: () => {
          let ok = 0;
          for (const v of set) if (a(v)) ok++;
          return ok;
        },
        keyed: () => {
          let ok = 0;
          for (const v of set) if (b(v)) ok++;
          return ok;
        },
      },
      { rounds, sampleMs: 10, warmupMs: 200 },
    );
    const ns = (ms: number): number => (ms * 1e6) / set.length;
    const r = pairedRatio(t.oneOf, t.keyed);
    rows.push({
      id: `union.${name}`,
      group: '5',
      name: `union ${name}, ${set.length} valid values (per value)`,
      a: { label: 'oneOf', value: ns(median(t.oneOf)), unit: 'ns' },
      b: { label: 'keyed', value: ns(median(t.keyed)), unit: 'ns' },
      ratio: r.ratio,
      spread: r.spread,
      ci: r.ci,
      ratioMeaning: 'keyed (generated) time / oneOf (spec as written, ajv) time',
      samples: t,
    });
  }
  return rows;
}
