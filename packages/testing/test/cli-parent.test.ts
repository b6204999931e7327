/**
 * `x-stub` under a wrapper that is killed without passing the signal on (`npx x-stub &`, then the npx
 * process killed): the stub notices it has a new parent and stops, freeing its ports.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

describe('x-stub when its parent goes', () => {
  it('stops and frees its port', async () => {
    const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
    // The wrapper starts x-stub, prints its output through, and is then killed with SIGKILL.
    const wrapper = spawn(
      process.execPath,
      ['-e', `const c = require('node:child_process').spawn(process.execPath, ['--import', 'tsx', ${JSON.stringify(cli)}, '--node-port', '0', '--price-port', '0'], { stdio: ['ignore', 'inherit', 'inherit'] });`],
      { cwd: fileURLToPath(new URL('../../..', import.meta.url)), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    wrapper.stdout.setEncoding('utf8');
    wrapper.stdout.on('data', (d: string) => (out += d));
    try {
      for (let i = 0; i < 300 && !out.includes('Ctrl-C'); i++) await new Promise((r) => setTimeout(r, 20));
      const nodeUrl = /node stub:\s+(\S+)/.exec(out)![1]!;
      expect((await fetch(`${nodeUrl}/rpc/v2/accounts/0x1`)).status).toBe(200);
      wrapper.kill('SIGKILL');
      // Within a few of its half-second checks, nothing listens there any more.
      let refused = false;
      for (let i = 0; i < 40 && !refused; i++) {
        await new Promise((r) => setTimeout(r, 100));
        refused = await fetch(`${nodeUrl}/rpc/v2/accounts/0x1`).then(() => false, () => true);
      }
      expect(refused).toBe(true);
    } finally {
      if (wrapper.exitCode === null) wrapper.kill('SIGKILL');
    }
  });
});
