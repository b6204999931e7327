/**
 * What a walk remembers to notice a node that repeats itself: digests, not the values, and only the
 * most recent ones, so that a walk's memory stays bounded however long it runs and however large the
 * cursors or items a node sends.
 */

/**
 * A 53-bit digest of `text` (cyrb53: two 32-bit multiplicative hashes mixed). Not cryptographic: a
 * false repeat among a million values has odds of about 1 in 10^4, and a node that wants a walk to
 * repeat needs no collision to do it.
 *
 * @example
 * ```ts
 * digest('abc') === digest('abc'); // true
 * ```
 * @internal
 */
export function digest(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/**
 * The digests of the last `size` values added (strings digested, bigints kept as they are: both small),
 * oldest forgotten first, and one more: a checkpoint moved to the value added at each power of two
 * (Brent's cycle detection). A node that cycles through more values than `size` therefore still repeats
 * the checkpoint within three times the cycle's length, in constant memory.
 *
 * @example
 * ```ts
 * const sent = new Recent(4);
 * sent.add('cursor-1');
 * sent.has('cursor-1'); // true
 * ```
 * @internal
 */
export class Recent {
  readonly #keys = new Set<number | bigint>();
  #checkpoint: number | bigint | undefined;
  #power = 1;
  #steps = 0;
  /** @param size - How many values are remembered; the oldest is forgotten first. */
  constructor(readonly size: number) {}

  /** Whether `value` is among the last `size` added, or is the checkpoint. */
  has(value: string | bigint): boolean {
    const key = keyOf(value);
    return key === this.#checkpoint || this.#keys.has(key);
  }

  /** Adds `value`; answers whether it was there already (see {@link Recent.has}). */
  add(value: string | bigint): boolean {
    const key = keyOf(value);
    if (key === this.#checkpoint || this.#keys.has(key)) return true;
    this.#keys.add(key);
    // A Set iterates in insertion order: its first key is the oldest.
    if (this.#keys.size > this.size) this.#keys.delete(this.#keys.values().next().value!);
    if (++this.#steps === this.#power) {
      this.#checkpoint = key;
      this.#power *= 2;
      this.#steps = 0;
    }
    return false;
  }
}

const keyOf = (value: string | bigint): number | bigint => (typeof value === 'bigint' ? value : digest(value));
