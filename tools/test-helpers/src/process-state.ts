/**
 * The setup file of the Node test projects, which run their files one after another in a worker without
 * isolation (`isolate: false` in vitest.config.ts: the modules are imported once per worker, not once per
 * file). What a file changes of the process would reach the files after it, so each file must leave it
 * as it found it: no fake timers installed, the same environment variables, working directory, globals
 * and process listeners, and no socket, server or timer left open (which would fail the next file's
 * open-handle check instead). vitest runs this file before each test file, and its `afterAll` after the
 * file's own (they run in reverse order), so a file that leaves one of these changed fails, naming it.
 */
import { afterAll, expect, vi } from 'vitest';
import { expectNoOpenHandles } from './open-handles.ts';

/** The process events a test or a library may listen to; a listener left behind outlives its file. */
const EVENTS = ['unhandledRejection', 'uncaughtException', 'warning', 'exit', 'beforeExit', 'SIGINT', 'SIGTERM'] as const;

/** What a file may change of the process and must restore. */
function processState(): Record<string, unknown> {
  return {
    cwd: process.cwd(),
    env: { ...process.env },
    exitCode: process.exitCode,
    globals: Object.getOwnPropertyNames(globalThis).sort(),
    listeners: Object.fromEntries(EVENTS.map((event) => [event, process.listenerCount(event)])),
  };
}

// Taken before the test file is imported: what its imports change counts too.
const before = processState();
afterAll(async () => {
  expect(vi.isFakeTimers(), 'fake timers left installed after the file').toBe(false);
  expect(processState(), 'process state the file changed and did not restore').toEqual(before);
  await expectNoOpenHandles();
});
