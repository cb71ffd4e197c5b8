import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

const shared = {
  // SWC keeps decorator metadata, which NestJS dependency injection relies on.
  plugins: [swc.vite({ module: { type: 'es6' } })],
  // The @satfarm/* libraries resolve through tsconfig.json's `paths`, their one registration.
  resolve: { tsconfigPaths: true },
};

/** Where the sources' own specs live (end-to-end specs live in test/). */
const SOURCES = ['libs', 'apps', 'deploy', 'bench'];

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
          // Pure specs: no process, no socket (README.md#tests); the setup file refuses both.
          name: 'unit',
          include: SOURCES.map((dir) => `${dir}/**/*.spec.ts`),
          setupFiles: ['test/support/unit-purity.setup.ts'],
          testTimeout: 60_000,
        },
      },
      {
        ...shared,
        test: {
          // Specs that run a solver, Redis or PostgreSQL from the sources, without the build.
          name: 'integration',
          include: [...SOURCES, 'test'].map((dir) => `${dir}/**/*.int-spec.ts`),
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
