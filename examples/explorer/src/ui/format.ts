/** `0x1234…cdef` for long hex strings. */
export function short(hex: string): string {
  return hex.length > 14 ? `${hex.slice(0, 8)}…${hex.slice(-6)}` : hex;
}

/** A u64 amount of the smallest unit as a decimal with `decimals` places (exact: no float). */
export function units(value: string | number, decimals: number): string {
  const digits = BigInt(value).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, -decimals).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = digits.slice(-decimals).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

export function dateTime(date: Date): string {
  return date.toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
}

/** Whether two addresses are one: any case, with or without `0x` and leading zeros. */
export function sameAddress(a: string, b: string): boolean {
  const norm = (s: string) => s.toLowerCase().replace(/^0x/, '').replace(/^0+(?=.)/, '');
  return norm(a) === norm(b);
}
