import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
  server: {
    // The API and its WebSocket gateway live behind /backend on the api role, as in production.
    proxy: {
      '/backend': { target: 'http://127.0.0.1:8080', ws: true },
    },
  },
});
