/**
 * Small deterministic helpers: a seeded PRNG (mulberry32), integer hashing and sha256 hex digests.
 * Everything the stubs serve is derived from these, so one seed gives byte-identical bodies.
 */
// A pure-JS sha256, so that the same module runs in Node and in browsers (Web Crypto's digest is async).
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { StubArgumentError } from './errors.ts';

/** A PRNG returning floats in [0, 1). */
export type Rng = () => number;

/** mulberry32: tiny, fast, good enough for synthetic data. */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Integer in [min, max] (both inclusive). */
export function randInt(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

/** FNV-1a over a string, as an unsigned 32-bit integer. Turns string seeds and labels into numbers. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A seed given as a number or a string, as an unsigned 32-bit integer. */
export function seedToU32(seed: number | string): number {
  if (typeof seed === 'number') {
    if (!Number.isSafeInteger(seed)) throw new StubArgumentError('seed', `must be a safe integer or a string, got ${seed}`);
    return seed >>> 0;
  }
  if (typeof seed !== 'string') throw new StubArgumentError('seed', `must be a safe integer or a string, got ${String(seed)}`);
  return fnv1a(seed);
}

/** Mixes up to four 32-bit integers into one uniform float in [0, 1) (stateless; used for lattice noise). */
export function hash4(a: number, b: number, c: number, d: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13) ^ b, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16) ^ c, 0x27d4eb2f);
  h = Math.imul(h ^ (h >>> 15) ^ d, 0x165667b1);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return (h >>> 0) / 4294967296;
}

/** sha256 of the joined parts, as 64 lowercase hex digits. */
export function sha256Hex(...parts: Array<string | number>): string {
  return bytesToHex(sha256(utf8ToBytes(parts.join(':'))));
}

/** `bytes` deterministic pseudo-random bytes as lowercase hex (no prefix). */
export function hexBytes(rng: Rng, bytes: number): string {
  let out = '';
  for (let i = 0; i < bytes; i++) out += Math.floor(rng() * 256).toString(16).padStart(2, '0');
  return out;
}

/** In-place Fisher–Yates shuffle. */
export function shuffle<T>(rng: Rng, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    const tmp = items[i] as T;
    items[i] = items[j] as T;
    items[j] = tmp;
  }
  return items;
}

/** Lowercase hex of bytes (no prefix). */
export const toHex = (bytes: Uint8Array | readonly number[]): string => bytesToHex(Uint8Array.from(bytes));

/** Lowercase hex of a string's UTF-8 bytes (no prefix). */
export const utf8Hex = (text: string): string => bytesToHex(utf8ToBytes(text));

/** The bytes of an even-length hex string (no prefix), as numbers. */
export function hexToByteList(hex: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < hex.length; i += 2) out.push(Number.parseInt(hex.slice(i, i + 2), 16));
  return out;
}
