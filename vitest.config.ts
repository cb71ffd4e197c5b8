import { fileURLToPath } from 'node:url';
import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

const lib = (name: string): string => fileURLToPath(new URL(`./libs/${name}/src/index.ts`, import.meta.url));

const shared = {
  // SWC keeps decorator metadata, which NestJS dependency injection relies on.
  plugins: [swc.vite({ module: { type: 'es6' } })],
  resolve: {
    alias: [
      {
        find: '@satfarm/cnf/testing',
        replacement: fileURLToPath(new URL('./libs/cnf/src/testing/index.ts', import.meta.url)),
      },
      {
        find: '@satfarm/engine/testing',
        replacement: fileURLToPath(new URL('./libs/engine/src/testing/index.ts', import.meta.url)),
      },
      ...['cnf', 'solver', 'sweep', 'games', 'queue', 'engine'].map((n) => ({
        find: `@satfarm/${n}`,
        replacement: lib(n),
      })),
    ],
  },
};

export default defineConfig({
  ...shared,
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        ...shared,
        test: {
          name: 'unit',
          include: ['libs/**/*.spec.ts', 'apps/**/*.spec.ts', 'deploy/**/*.spec.ts'],
          testTimeout: 60_000,
        },
      },
      {
        ...shared,
        test: {
          name: 'e2e',
          include: ['test/**/*.e2e-spec.ts'],
          // End-to-end specs run the built CLI and servers: build first when sources are newer.
          globalSetup: ['test/support/build.global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
