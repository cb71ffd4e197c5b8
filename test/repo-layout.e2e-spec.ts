import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

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
