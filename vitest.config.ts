import { fileURLToPath } from 'node:url';
import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

const lib = (name: string): string => fileURLToPath(new URL(`./libs/${name}/src/index.ts`, import.meta.url));

export default defineConfig({
  // SWC keeps decorator metadata, which NestJS dependency injection relies on.
  plugins: [swc.vite({ module: { type: 'es6' } })],
  resolve: {
    alias: Object.fromEntries(
      ['cnf', 'solver', 'sweep', 'games', 'queue', 'engine'].map((n) => [`@satfarm/${n}`, lib(n)]),
    ),
  },
  test: {
    include: ['libs/**/*.spec.ts', 'apps/**/*.spec.ts', 'test/**/*.e2e-spec.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
