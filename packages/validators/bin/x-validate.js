#!/usr/bin/env node
// The x-validate command. A committed shim, so that the bin exists when the package is linked before it
// is built (a fresh clone's `pnpm install` warned "Failed to create bin" otherwise).
import '../dist/cli/main.js';
