import { expect } from 'vitest';

/** Waits (up to 2 s) until no TCP socket, server or timer keeps the process alive; fails otherwise. */
export async function expectNoOpenHandles(): Promise<void> {
  const open = (): string[] => process.getActiveResourcesInfo().filter((r) => /^(TCP|Timeout|Immediate)/.test(r));
  // Closed sockets and servers leave the list a moment after close() resolves.
  for (let i = 0; i < 100 && open().length > 0; i++) await new Promise((r) => setTimeout(r, 20));
  expect(open(), 'open handles after the suite').toEqual([]);
}
