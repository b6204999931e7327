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
  const decimal = (field: keyof Instrument): number => {
    const text = instrument[field];
    if (typeof text !== 'string' || !DECIMAL.test(text)) throw malformed(field, text, 'a decimal number');
    const value = Number(text);
    if (!Number.isFinite(value)) throw malformed(field, text, 'a finite decimal number');
    return value;
  };
  const timeText = instrument.time;
  if (typeof timeText !== 'string' || !MILLIS.test(timeText) || !Number.isSafeInteger(Number(timeText))) {
    throw malformed('time', timeText, 'Unix milliseconds');
  }
  const m = typeof instrument.timestamp === 'string' ? DATE_TIME.exec(instrument.timestamp) : null;
  const timestamp = m ? new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!)) : undefined;
  if (!m || !timestamp || timestamp.getUTCDate() !== +m[3]! || +m[4]! > 23 || +m[5]! > 59 || +m[6]! > 59) {
    throw malformed('timestamp', instrument.timestamp, 'a date-time YYYY-MM-DD HH:MM:SS');
  }
  return {
    pair: instrument.tradingPairs,
    currentPrice: decimal('currentPrice'),
    high24h: decimal('24h_high'),
    low24h: decimal('24h_low'),
    change24h: decimal('24h_change'),
    time: new Date(Number(timeText)),
    timestamp,
    raw: instrument,
  };
}

function malformed(field: string, value: unknown, expected: string): InvalidArgumentError {
  return new InvalidArgumentError(`instrument.${field}`, `must be ${expected}, got ${JSON.stringify(value)}`);
}
