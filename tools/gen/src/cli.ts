// `pnpm gen`: the command line of runGen (command.ts), which tests call in-process.
import { runGen } from './command.ts';

const code = await runGen(process.argv.slice(2));
if (code !== 0) process.exit(code);
