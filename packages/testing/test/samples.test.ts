/**
 * The samples `pnpm gen` writes into `generated/samples.ts`, which the stubs answer an operation they have
 * no handler for with: one for every operation of the generated operation tables (read here, not
 * listed), each valid in both readings and both strictness levels of `@x/validators`.
 */
import { describe, expect, it } from 'vitest';
import { nodeRpcOperations, priceHistoryOperations } from '@x/common';
import { validateResponse, type OperationId } from '@x/validators';
import { nodeRpcSamples, priceHistorySamples } from '../src/generated/samples.ts';

const operations = [...Object.keys(nodeRpcOperations), ...Object.keys(priceHistoryOperations)];
const samples: Readonly<Record<string, unknown>> = { ...nodeRpcSamples, ...priceHistorySamples };
const READINGS = [
  { profile: 'documented', strict: false },
  { profile: 'documented', strict: true },
  { profile: 'live', strict: false },
  { profile: 'live', strict: true },
] as const;

describe('the generated samples', () => {
  it('are one per operation of the generated tables, no more', () => {
    expect(Object.keys(samples).sort()).toEqual([...operations].sort());
  });

  it.each(operations)('%s: its sample is a valid 200 body in both readings, lenient and strict', (id) => {
    expect(Object.hasOwn(samples, id)).toBe(true);
    for (const options of READINGS) {
      expect(validateResponse(id as OperationId, 200, samples[id], options), JSON.stringify(options)).toEqual({ ok: true, value: samples[id] });
    }
  });
});
