import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { mswWorker } from '../../tools/browser-tests/src/msw-worker.ts';

export default defineConfig({
  // mswWorker: /mockServiceWorker.js, for the stubs' streams (src/stub-streams.ts), is this app's msw's own
  // script, served by `vite` and written to dist/ by `vite build`; no copy of it is committed.
  plugins: [react(), mswWorker()],
  // The manifest tells `pnpm size` which chunks the page loads first and which only on demand.
  build: { target: 'es2022', manifest: true },
  preview: { host: '127.0.0.1', port: 4173 },
});
