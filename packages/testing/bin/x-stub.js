#!/usr/bin/env node
// The x-stub command. A committed shim, so that the bin exists when the package is linked before it is built.
import '../dist/cli.js';
