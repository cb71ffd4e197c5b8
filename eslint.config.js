import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'apps/web/dist/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../../libs/*', '../../../libs/*', '**/libs/*/src/*'],
              message: 'import libraries through @satfarm/<lib>',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // Pure libraries never spawn processes or touch the queue: only libs/solver runs subprocesses.
    files: ['libs/cnf/**', 'libs/sweep/**', 'libs/games/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            'node:child_process',
            'child_process',
            'bullmq',
            '@nestjs/common',
            '@nestjs/core',
            'ioredis',
          ],
        },
      ],
    },
  },
  prettier,
);
