import type { Instrument } from './generated/price-history.js';
import { InvalidArgumentError } from './generated/runtime/errors.js';

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
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

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
  const parts = typeof instrument.timestamp === 'string' ? DATE_TIME.exec(instrument.timestamp)?.slice(1).map(Number) : undefined;
  const timestamp = parts && new Date(Date.UTC(parts[0]!, parts[1]! - 1, parts[2]!, parts[3]!, parts[4]!, parts[5]!));
  // Date.UTC rolls over silently (month 13, 30 February, 24:00) and maps years 0-99 to 19xx, so the
  // fields are read back: a text that does not name exactly this moment is malformed.
  const readBack = timestamp && [timestamp.getUTCFullYear(), timestamp.getUTCMonth() + 1, timestamp.getUTCDate(), timestamp.getUTCHours(), timestamp.getUTCMinutes(), timestamp.getUTCSeconds()];
  if (!timestamp || !readBack!.every((v, i) => v === parts![i])) {
    throw malformed('timestamp', instrument.timestamp, 'a date-time YYYY-MM-DD HH:MM:SS');
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
