import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

const shared = {
  // SWC keeps decorator metadata, which NestJS dependency injection relies on.
  plugins: [swc.vite({ module: { type: 'es6' } })],
  // The @satfarm/* libraries resolve through tsconfig.json's `paths`, their one registration.
  resolve: { tsconfigPaths: true },
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
