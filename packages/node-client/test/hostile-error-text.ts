/**
 * Error text a node sends to make regular expressions backtrack, `n` characters of it: what the client
 * answers with is hostile-node.test.ts's check, that reading it takes time linear in `n`
 * hostile-node.perf.test.ts's.
 */
export const HOSTILE_ERROR_TEXTS: [name: string, status: number, body: (n: number) => { message: string }][] = [
  ['a 400 message of letters (the URL expression)', 400, (n) => ({ message: 'a'.repeat(n) })],
  ['a 400 message of scheme characters', 400, (n) => ({ message: 'a.'.repeat(n / 2) })],
  ['a 400 message of "a:" pairs', 400, (n) => ({ message: 'a:'.repeat(n / 2) })],
  ['a 429 "try again in" and digits', 429, (n) => ({ message: `Too many requests. Please try again in ${'1'.repeat(n)}` })],
  ['a 429 "try again in" and "1.1.1"', 429, (n) => ({ message: `try again in ${'1.'.repeat(n / 2)}` })],
  ['a 503 of Some("...") with escapes', 503, (n) => ({ message: `Some("${'\\"'.repeat(n / 2)}")` })],
];
