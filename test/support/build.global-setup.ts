import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const builtCli = join(root, 'dist/apps/cli/src/main.js');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** End-to-end specs run the built CLI: build it first when the sources are newer. */
export default function setup(): void {
  let builtAt: number;
  try {
    builtAt = statSync(builtCli).mtimeMs;
  } catch {
    builtAt = 0;
  }
  const sources = Math.max(...['apps', 'libs', 'bench'].map((dir) => newestSource(join(root, dir))));
  if (sources <= builtAt) return;
  // Type errors are the typecheck step's business; emit whatever compiles so the specs can run.
  try {
    execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'ignore' });
  } catch {
    process.stderr.write(
      'build: tsc reported type errors (see npm run typecheck); running with what it emitted\n',
    );
  }
  execFileSync('npx', ['tsc-alias', '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
}
