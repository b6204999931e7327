/**
 * The content codings of an answer, undone as fetch (undici's) undoes them, so that `httpUndici` reads
 * what `http` reads: gzip and x-gzip, deflate (zlib-wrapped, or raw as some servers send it) and br,
 * the last applied undone first, at most five.
 */
import type { Transform } from 'node:stream';
import { constants, createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';

/** Lenient with a body cut short at its end, as fetch and cURL are. */
const FLUSH = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };
const BROTLI_FLUSH = { flush: constants.BROTLI_OPERATION_FLUSH, finishFlush: constants.BROTLI_OPERATION_FLUSH };

/** More codings than this and fetch refuses the answer (undici's guard against resource exhaustion). */
const MAX_CODINGS = 5;

/**
 * The decoders of a `content-encoding` value, in the order the body goes through them: none where the
 * body is read as sent (no coding, `identity`, or one fetch does not know: it passes such a body on as
 * is). `first` is the body's first byte, which tells a zlib-wrapped deflate from a raw one. Throws past
 * {@link MAX_CODINGS} codings.
 */
export function decodersOf(encoding: string, first: number): Transform[] {
  const codings = encoding.toLowerCase().split(',');
  if (codings.length > MAX_CODINGS) throw new Error(`too many content-encodings (${codings.length}, at most ${MAX_CODINGS})`);
  const decoders: Transform[] = [];
  for (let i = codings.length - 1; i >= 0; i--) {
    const coding = codings[i]!.trim();
    if (coding === 'gzip' || coding === 'x-gzip') decoders.push(createGunzip(FLUSH));
    // A zlib header's low nibble is 8 (deflate); only the outermost coding's first byte is known here.
    else if (coding === 'deflate') decoders.push(decoders.length === 0 && (first & 0x0f) !== 0x08 ? createInflateRaw(FLUSH) : createInflate(FLUSH));
    else if (coding === 'br') decoders.push(createBrotliDecompress(BROTLI_FLUSH));
    else return [];
  }
  return decoders;
}
