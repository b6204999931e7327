/**
 * Reads a body to its end as UTF-8 text through `reader`, which the caller holds so that it can cancel
 * the read (a timeout, a caller's abort) whatever fetch does with its signal. With `keepPartial`, a body
 * cut short (reset, truncated) resolves to what arrived instead of rejecting: an error response keeps
 * the text it had.
 *
 * @example
 * ```ts
 * const reader = response.body!.getReader();
 * const text = await readText(reader, false); // rejects when the body is cut short
 * ```
 */
export async function readText(reader: ReadableStreamDefaultReader<Uint8Array>, keepPartial: boolean): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch (err) {
    if (!keepPartial) throw err;
  }
  return text + decoder.decode();
}
