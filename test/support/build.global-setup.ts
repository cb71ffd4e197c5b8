import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const builtCli = join(root, 'dist/apps/cli/src/main.js');

const builtWeb = join(root, 'dist/web/index.html');
const WEB_SOURCES = /\.(ts|tsx|css|html)$/;

function newestSource(dir: string, pattern = /\.ts$/): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path, pattern));
    else if (pattern.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function builtTime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** End-to-end specs run the built CLI and dashboard: build them first when the sources are newer. */
export default function setup(): void {
  // The dashboard bundles the examples too (the submit form's "example").
  const web = Math.max(
    newestSource(join(root, 'apps/web'), WEB_SOURCES),
    newestSource(join(root, 'examples'), /./),
  );
  if (web > builtTime(builtWeb))
    execFileSync('npx', ['vite', 'build', '--config', 'apps/web/vite.config.ts'], {
      cwd: root,
      stdio: 'inherit',
    });
  const builtAt = builtTime(builtCli);
  const sources = Math.max(
    ...['apps', 'libs', 'bench', 'deploy'].map((dir) => newestSource(join(root, dir))),
  );
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
