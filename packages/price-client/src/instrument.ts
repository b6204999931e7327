import type { Instrument } from '@x/price-types';
import { InvalidArgumentError } from '@x/client-core';

/** An instrument of `/latest` with its strings read as numbers and dates; `raw` keeps the strings. */
export type InstrumentValues = {
  readonly pair: string;
  readonly currentPrice: number;
  readonly high24h: number;
  readonly low24h: number;
  readonly change24h: number;
  /** `time` (Unix milliseconds) as a Date. */
  readonly time: Date;
  /**
   * The `timestamp` text read as UTC. The service does not document its time zone; `raw.timestamp`
   * keeps the text.
   */
  readonly timestamp: Date;
  readonly raw: Instrument;
};

const DECIMAL = /^-?\d+(\.\d+)?$/;
const MILLIS = /^\d+$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/**
 * Reads an instrument's decimal strings as numbers and its times as dates. A malformed value is an
 * `InvalidArgumentError` naming the field, never a silent `NaN`.
 *
 * @example
 * ```ts
 * const { instruments } = await prices.latest({ pair: 'btc_usdt' });
 * const btc = readInstrument(instruments[0]!);
 * console.log(btc.currentPrice, btc.time.toISOString());
 * ```
 */
export function readInstrument(instrument: Instrument): InstrumentValues {
  if (typeof instrument !== 'object' || instrument === null) throw malformed('', instrument, 'an object');
  const decimal = (field: keyof Instrument): number => {
    const text = instrument[field];
    if (typeof text !== 'string' || !DECIMAL.test(text)) throw malformed(field, text, 'a decimal number');
    const value = Number(text);
    if (!Number.isFinite(value)) throw malformed(field, text, 'a finite decimal number');
    return value;
  };
  const timeText = instrument.time;
  // Digits beyond ±8.64e15 ms parse as a number but make an Invalid Date: that is malformed too.
  const time = typeof timeText === 'string' && MILLIS.test(timeText) ? new Date(Number(timeText)) : undefined;
  if (time === undefined || Number.isNaN(time.getTime())) throw malformed('time', timeText, 'Unix milliseconds');
  const text = instrument.timestamp;
  const iso = typeof text === 'string' && DATE_TIME.test(text) ? text.replace(' ', 'T') : undefined;
  const timestamp = iso === undefined ? undefined : new Date(`${iso}Z`);
  // Date rolls over silently (30 February, 24:00), so the text read back must name exactly this moment.
  if (!timestamp || Number.isNaN(timestamp.getTime()) || timestamp.toISOString().slice(0, 19) !== iso) {
    throw malformed('timestamp', text, 'a date-time YYYY-MM-DD HH:MM:SS');
  }
  return {
    pair: instrument.tradingPairs,
    currentPrice: decimal('currentPrice'),
    high24h: decimal('24h_high'),
    low24h: decimal('24h_low'),
    change24h: decimal('24h_change'),
    time,
    timestamp,
    raw: instrument,
  };
}

function malformed(field: string, value: unknown, expected: string): InvalidArgumentError {
  const shown = value === undefined ? 'undefined' : JSON.stringify(value);
  return new InvalidArgumentError(field === '' ? 'instrument' : `instrument.${field}`, `must be ${expected}, got ${shown}`);
}
