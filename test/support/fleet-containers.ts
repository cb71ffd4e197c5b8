import { execFile, spawn } from 'node:child_process';
import { createServer } from 'node:net';

import { type CliRun, repoRoot } from './run-cli.js';

/** The environment Podman runs with here: the repository's settings unless the caller has its own. */
export function engineEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    CONTAINERS_CONF: process.env.CONTAINERS_CONF ?? `${repoRoot}deploy/containers.conf`,
    ...extra,
  };
}

/** Runs `podman args...`; its standard output, or an error with its standard error. */
export function podman(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('podman', args, { env: engineEnv(), maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err !== null) reject(new Error(`podman ${args.join(' ')}: ${err.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

/** Runs `npm run --silent <script> -- args...` from the repository root, to its end. */
export function runScript(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<CliRun & { ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr, ms: Date.now() - started }));
  });
}

/** What carries a fleet's label: containers, networks and volumes, by name. */
export async function labelled(
  fleet: string,
): Promise<{ containers: string[]; networks: string[]; volumes: string[] }> {
  const filter = `label=satfarm.fleet=${fleet}`;
  const names = async (args: string[]) => (await podman(args)).split('\n').filter(Boolean).sort();
  return {
    containers: await names(['ps', '--all', '--format', '{{.Names}}', '--filter', filter]),
    networks: await names(['network', 'ls', '--format', '{{.Name}}', '--filter', filter]),
    volumes: await names(['volume', 'ls', '--format', '{{.Name}}', '--filter', filter]),
  };
}

/** Removes everything that carries the fleet's label, whatever state the fleet is in. */
export async function removeLabelled(fleet: string): Promise<void> {
  const { containers, networks, volumes } = await labelled(fleet);
  if (containers.length > 0) await podman(['rm', '--force', '--time', '0', ...containers]);
  for (const network of networks) await podman(['network', 'rm', '--force', network]);
  if (volumes.length > 0) await podman(['volume', 'rm', '--force', ...volumes]);
}

/** A TCP port nothing listens on at 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The processes of a running container, as `podman top` lists them (command lines). */
export async function containerProcesses(container: string): Promise<string[]> {
  return (await podman(['top', container, 'args'])).split('\n').slice(1).filter(Boolean);
}

/** A container's last log lines, its standard output and error interleaved as podman gives them. */
export function containerLogs(container: string, lines = 25): Promise<string> {
  return new Promise((resolve) => {
    execFile(
      'podman',
      ['logs', '--tail', String(lines), container],
      { env: engineEnv() },
      (err, stdout, stderr) => resolve(err === null ? `${stdout}${stderr}` : `${err.message}\n${stderr}`),
    );
  });
}
