/**
 * The one place the candle stream opens a socket: client-core's WebSocket layer, with the key in the
 * `x-api-key` header of the upgrade (never in the URL). A browser's WebSocket sends no headers: there
 * `webSocketUrl` is a proxy of the app's that adds the key upstream (see the README).
 */
import { openSocket, type Socket } from '@x/client-core';

/** The largest frame the stream takes: a frame of ticks is small; anything near this is not one. */
const MAX_FRAME_BYTES = 1024 * 1024;

/** Opens the feed's socket at `url`, each text frame handed to `onMessage`. */
export function openFeedSocket(options: { url: string; apiKey: string; signal: AbortSignal; onMessage(text: string): void }): Promise<Socket> {
  return openSocket({ url: options.url, headers: { 'x-api-key': options.apiKey }, maxFrameBytes: MAX_FRAME_BYTES, signal: options.signal, onMessage: options.onMessage });
}
