import { dirname, relative, resolve, sep } from 'node:path';

import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/** Libraries are imported through their alias, never by a path into their sources. */
const throughAliases = {
  group: ['../../libs/*', '../../../libs/*', '**/libs/*/src/*'],
  message: 'import libraries through @satfarm/<lib>',
};

/** `no-restricted-imports` with the alias rule and `more`: a later setting replaces an earlier one. */
const restrictedImports = (...more) => ['error', { patterns: [throughAliases, ...more] }];

/**
 * What the pure libraries (cnf, sweep, games) may not import: processes, the queue and Redis, a
 * framework, and the libraries that bring them (only libs/solver starts processes, libs/engine and
 * the farm's libraries run it, libs/queue holds BullMQ's settings).
 */
const impure = {
  processes: {
    group: ['child_process', 'node:child_process'],
    message: 'pure libraries start no processes: only libs/solver does',
  },
  queue: {
    group: ['bullmq', 'bullmq/*', 'ioredis', 'ioredis/*', '@nestjs/*'],
    message: 'pure libraries touch no queue, no Redis and no framework',
  },
  solving: {
    group: ['@satfarm/solver', '@satfarm/engine', '@satfarm/queue'],
    message: 'pure libraries run no solver: solving lives in libs/engine, which may import them',
  },
};
// The same modules, imported dynamically (a selector's regex cannot hold a slash: `.` stands for it).
const impureModule = /^(node:)?child_process$|^(bullmq|ioredis|@nestjs.|@satfarm.(solver|engine|queue))/;

const repoRoot = import.meta.dirname;

/** `apps/<name>` or `libs/<name>` for a file of the repository, else undefined. */
function areaOf(file) {
  const [top, name, ...rest] = relative(repoRoot, file).split(sep);
  return (top === 'apps' || top === 'libs') && name !== undefined && rest.length > 0
    ? `${top}/${name}`
    : undefined;
}

/**
 * What an app offers the apps that run it inside their own process (`satfarm api`, `worker` and
 * `serve` start them; docs/farm.md#processes-and-entry-points): its bootstrap and what configures
 * it. Nothing else of an app may be imported by another.
 */
const appEntryPoints = new Set([
  'apps/api/src/api.bootstrap.ts',
  'apps/api/src/embedded/local-redis.server.ts',
  'apps/worker/src/worker.bootstrap.ts',
  'apps/worker/src/worker.module.ts',
  'apps/worker/src/worker.options.ts',
]);

/**
 * Apps compose libraries: a file of an app or a library imports no app's source but its own app's,
 * and reaches another library through its alias only. Relative specifiers are resolved against the
 * importing file, so any depth of `../` is caught; the `@satfarm/*` aliases name libraries only.
 */
const importBoundaries = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      fromApp: "{{from}} imports {{to}}'s source: apps share code through a library, not each other",
      fromLib: "{{from}} imports {{to}}'s source: libraries never depend on an app",
      otherLib: "{{from}} imports {{to}}'s source by path: import it through its @satfarm alias",
    },
  },
  create(context) {
    const from = areaOf(context.filename);
    if (from === undefined) return {};
    const check = (source) => {
      if (source?.type !== 'Literal' || typeof source.value !== 'string' || !source.value.startsWith('.'))
        return;
      const target = resolve(dirname(context.filename), source.value);
      const to = areaOf(target);
      if (to === undefined || to === from) return;
      const entryPoint = relative(repoRoot, target).split(sep).join('/').replace(/\.js$/, '.ts');
      if (from.startsWith('apps/') && appEntryPoints.has(entryPoint)) return;
      const messageId = to.startsWith('libs/')
        ? 'otherLib'
        : from.startsWith('apps/')
          ? 'fromApp'
          : 'fromLib';
      context.report({ node: source, messageId, data: { from, to } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'apps/web/dist/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { satfarm: { rules: { 'import-boundaries': importBoundaries } } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      'no-restricted-imports': restrictedImports(),
      'satfarm/import-boundaries': 'error',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['libs/cnf/**', 'libs/sweep/**', 'libs/games/**'],
    rules: {
      'no-restricted-imports': restrictedImports(impure.processes, impure.queue, impure.solving),
      'no-restricted-syntax': [
        'error',
        {
          selector: `ImportExpression[source.value=${impureModule}]`,
          message: 'pure libraries start no processes, touch no queue and run no solver',
        },
      ],
    },
  },
  {
    // An integration spec may check an encoding by solving it with kissat; a unit spec may not.
    files: ['libs/cnf/**/*.int-spec.ts', 'libs/sweep/**/*.int-spec.ts', 'libs/games/**/*.int-spec.ts'],
    rules: { 'no-restricted-imports': restrictedImports(impure.processes, impure.queue) },
  },
  prettier,
);
