// The page lives in web/; public/ holds sample data served as-is; the build goes to dist/.
// base './' keeps every URL relative, so dist/ works from any static host, sub-path or iframe.
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'web',
  base: './',
  publicDir: '../public',
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 800, // three.js alone is ~540 kB minified
  },
  // the worker imports the Emscripten ES-module glue, so it must stay an ES module
  worker: { format: 'es' },
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 5173 },
});
