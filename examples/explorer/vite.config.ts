import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  // The manifest tells `pnpm size` which chunks the page loads first and which only on demand.
  build: { target: 'es2022', manifest: true },
  preview: { host: '127.0.0.1', port: 4173 },
});
