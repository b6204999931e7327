/**
 * TypeScript types for the Supra price-history service, generated from
 * `specs/price-history.openapi.yaml`: `paths`, `operations`, `components` and one alias per schema.
 *
 * @example
 * ```ts
 * import type { Candle } from '@x/price-types';
 * const close = (c: Candle): number => c.close; // a JSON number, as the service sends it
 * ```
 * @packageDocumentation
 * @module @x/price-types
 */
export type * from './generated/price-history.js';
