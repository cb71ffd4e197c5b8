import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import { describe, expect, it } from 'vitest';

import vitestConfig from '../vitest.config.js';
import { importCycles, importGraph } from './support/import-graph.js';
import { repoRoot } from './support/run-cli.js';

interface NestProject {
  type: 'application' | 'library';
  root: string;
  sourceRoot: string;
  entryFile: string;
}

const read = <T>(file: string): T => JSON.parse(readFileSync(join(repoRoot, file), 'utf8')) as T;
/** Every file under `dir` (relative to the root), build output and packages left out. */
const filesUnder = (dir: string): string[] =>
  readdirSync(join(repoRoot, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(repoRoot, join(entry.parentPath, entry.name)))
    .filter((file) => !/(^|\/)(node_modules|dist)\//.test(file));
const folders = (dir: string): string[] =>
  readdirSync(join(repoRoot, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

describe('the libraries', () => {
  const paths = read<{ compilerOptions: { paths: Record<string, string[]> } }>('tsconfig.json')
    .compilerOptions.paths;

  it('are registered once, as tsconfig.json path aliases: @satfarm/<folder> for each folder of libs/', () => {
    const libraries = Object.keys(paths)
      .filter((alias) => !alias.endsWith('/testing'))
      .map((alias) => alias.replace('@satfarm/', ''))
      .sort();
    expect(libraries).toEqual(folders('libs'));
    for (const [alias, [target, ...more]] of Object.entries(paths)) {
      expect(more, alias).toEqual([]);
      const lib = alias.replace('@satfarm/', '').replace(/\/testing$/, '');
      const entry = alias.endsWith('/testing') ? 'testing/index.ts' : 'index.ts';
      expect(target, alias).toBe(`./libs/${lib}/src/${entry}`);
      expect(existsSync(join(repoRoot, target!)), target).toBe(true);
    }
  });

  it('resolve in the tests through those aliases, with no list of their own', () => {
    const shared = vitestConfig as { resolve?: { alias?: unknown; tsconfigPaths?: boolean } };
    expect(shared.resolve).toEqual({ tsconfigPaths: true });
  });
});

describe('nest-cli.json', () => {
  const nest = read<{ monorepo: boolean; projects: Record<string, NestProject> }>('nest-cli.json');

  it('names the three server-side apps and their entry files, as they are on disk', () => {
    expect(nest.monorepo).toBe(true);
    expect(Object.keys(nest.projects).sort()).toEqual(['api', 'cli', 'worker']);
    for (const [name, project] of Object.entries(nest.projects)) {
      expect(project.type, name).toBe('application');
      expect(project.root, name).toBe(`apps/${name}`);
      const entry = join(repoRoot, project.sourceRoot, `${project.entryFile}.ts`);
      expect(existsSync(entry), `${name}: ${entry}`).toBe(true);
      expect(project.sourceRoot.startsWith(`${project.root}/`), name).toBe(true);
    }
  });
});

describe('the imports', () => {
  it('form no cycle, among the sources, specs, benches and the dashboard', () => {
    const graph = importGraph(repoRoot, ['tsconfig.json', 'apps/web/tsconfig.json']);
    expect(graph.size).toBeGreaterThan(400);
    expect(importCycles(graph)).toEqual([]);
  });
});

describe('the specs', () => {
  const projects = (vitestConfig as { test: { projects: { test: { name: string; include: string[] } }[] } })
    .test.projects;
  const includeOf = (name: string): string[] => projects.find((p) => p.test.name === name)!.test.include;

  it('are the three projects of README.md#tests, each by its own file name', () => {
    expect(projects.map((p) => p.test.name)).toEqual(['unit', 'integration', 'e2e']);
    for (const pattern of includeOf('unit')) expect(pattern).toMatch(/^[a-z]+\/\*\*\/\*\.spec\.ts$/);
    for (const pattern of includeOf('integration').filter((p) => p.includes('*')))
      expect(pattern).toMatch(/^[a-z]+\/\*\*\/\*\.int-spec\.ts$/);
    expect(includeOf('e2e')).toEqual(['test/**/*.e2e-spec.ts']);
  });

  it('are named so that one project runs each: none is left out by a name no project reads', () => {
    const sources = includeOf('unit').map((pattern) => pattern.split('/')[0]!);
    const named = (file: string): boolean => /[.-](spec|test)\.[cm]?[jt]sx?$/.test(file);
    const misnamed = [
      ...filesUnder('test').filter(
        (file) => named(file) && !file.endsWith('.e2e-spec.ts') && !file.endsWith('.int-spec.ts'),
      ),
      ...sources.flatMap((dir) =>
        filesUnder(dir).filter(
          (file) => named(file) && !file.endsWith('.spec.ts') && !file.endsWith('.int-spec.ts'),
        ),
      ),
    ];
    expect(misnamed).toEqual([]);
  });
});
