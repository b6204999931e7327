// A module of their own: the client exports them, the lazily loaded `historyRange` reads them.

/** Candles per `historyRange` window unless configured: 1,000 intervals per request. */
export const DEFAULT_WINDOW_CANDLES = 1000;
/** Windows `historyRange` fetches at once unless configured. */
export const DEFAULT_CONCURRENCY = 4;
