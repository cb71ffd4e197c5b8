import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { repoRoot } from './support/run-cli.js';

interface NestProject {
  type: 'application' | 'library';
  root: string;
  sourceRoot: string;
  entryFile: string;
}

const read = <T>(file: string): T => JSON.parse(readFileSync(join(repoRoot, file), 'utf8')) as T;

describe('nest-cli.json', () => {
  const nest = read<{ monorepo: boolean; projects: Record<string, NestProject> }>('nest-cli.json');
  const paths = read<{ compilerOptions: { paths: Record<string, string[]> } }>('tsconfig.json')
    .compilerOptions.paths;

  it("names every Nest project's entry file, as it is on disk", () => {
    expect(nest.monorepo).toBe(true);
    for (const [name, project] of Object.entries(nest.projects)) {
      const entry = join(repoRoot, project.sourceRoot, `${project.entryFile}.ts`);
      expect(existsSync(entry), `${name}: ${entry}`).toBe(true);
      expect(project.sourceRoot.startsWith(`${project.root}/`), name).toBe(true);
    }
  });

  it('lists each @satfarm library of the path aliases, and the three server-side apps', () => {
    const libraries = Object.keys(paths)
      .filter((alias) => !alias.endsWith('/testing'))
      .map((alias) => alias.replace('@satfarm/', ''))
      .sort();
    const listed = Object.entries(nest.projects);
    expect(
      listed
        .filter(([, p]) => p.type === 'library')
        .map(([name]) => name)
        .sort(),
    ).toEqual(libraries);
    for (const lib of libraries)
      expect(paths[`@satfarm/${lib}`]).toEqual([`./${nest.projects[lib]!.sourceRoot}/index.ts`]);
    expect(
      listed
        .filter(([, p]) => p.type === 'application')
        .map(([name]) => name)
        .sort(),
    ).toEqual(['api', 'cli', 'worker']);
  });
});
