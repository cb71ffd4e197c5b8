import { spawn } from 'node:child_process';

export const repoRoot = new URL('../..', import.meta.url).pathname;

/** The outcome of one `bin/satfarm` run. */
export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `bin/satfarm args...` to completion, optionally feeding stdin, in `env` if given. */
export function runCli(
  args: string[],
  options: { stdin?: string; onSpawn?: (pid: number) => void; env?: NodeJS.ProcessEnv } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(`${repoRoot}bin/satfarm`, args, {
      cwd: repoRoot,
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(options.env === undefined ? {} : { env: options.env }),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    if (child.pid !== undefined) options.onSpawn?.(child.pid);
    child.stdin.end(options.stdin ?? '');
  });
}
