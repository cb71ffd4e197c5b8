import { fileURLToPath } from 'node:url';

import { defineConfig } from 'vite';

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

/**
 * The dashboard's build: a static page in `dist/web`, served by the API at `/`. Relative asset
 * paths, so that it also works behind a proxy that serves the farm under a path prefix.
 */
export default defineConfig({
  root: here('.'),
  base: './',
  // The dashboard imports only types from the libraries; JSX is Preact's.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: here('../../dist/web'),
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: true,
    chunkSizeWarningLimit: 120,
  },
  server: { fs: { allow: [here('../..')] } },
  logLevel: 'warn',
});
