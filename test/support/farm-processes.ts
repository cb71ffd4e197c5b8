import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

import { Redis } from 'ioredis';

import { repoRoot } from './run-cli.js';

/** The Redis every farm spec runs against. */
export const TEST_REDIS_URL = process.env.SATFARM_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const dist = (path: string): string => pathToFileURL(join(repoRoot, 'dist', path)).href;

/** A key prefix no other spec (or run) uses. */
export function uniquePrefix(name: string): string {
  return `satfarm-test-${name}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

/** Deletes every key under `prefix` (the farm's and BullMQ's). */
export async function deletePrefix(prefix: string): Promise<void> {
  const redis = new Redis(TEST_REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', '1000');
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
}

/**
 * A module of games for farm specs, loaded by every API and worker process a spec starts: the
 * registry's games plus `staircase` (bench/farm/staircase.game.ts), a planning game whose
 * hardness per horizon the spec chooses, so that a dominated horizon can stay busy on purpose.
 */
export function writeFarmGamesModule(dir: string): string {
  const path = join(dir, 'farm-games.mjs');
  writeFileSync(
    path,
    `export { gamesWithStaircase as lookup } from '${dist('bench/farm/staircase.game.js')}';\n`,
  );
  return path;
}

/** A farm process started by a spec (an API or a worker). */
export interface FarmProcess {
  pid: number;
  child: ChildProcess;
  /** What the process printed on stderr so far. */
  stderr(): string;
  /** SIGTERM, and SIGKILL if it has not exited within 10 s. Resolves once it has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** The environment of a farm process: the test Redis and prefix, and any extra variables. */
function farmEnv(prefix: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, REDIS_URL: TEST_REDIS_URL, SATFARM_PREFIX: prefix, ...extra };
}

/**
 * Starts `node` on a module text and resolves with its first stdout line (parsed JSON). With a
 * `launcher` (e.g. `ip netns exec <name>`, which execs), node runs through it, with the same pid.
 */
function startNode(
  script: string,
  env: NodeJS.ProcessEnv,
  launcher: string[] = [],
): Promise<{ process: FarmProcess; hello: unknown }> {
  const [command, ...args] = [
    ...launcher,
    process.execPath,
    '--enable-source-maps',
    '--input-type=module',
    '-e',
    script,
  ];
  const child = spawn(command, args, {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const farmProcess: FarmProcess = {
    pid: child.pid!,
    child,
    stderr: () => stderr,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      try {
        resolve({ process: farmProcess, hello: JSON.parse(line) as unknown });
      } catch {
        reject(new Error(`unexpected first line from a farm process: ${line}`));
      }
    });
    child.once('exit', (code) =>
      reject(new Error(`farm process exited with ${code} before it was ready: ${stderr}`)),
    );
  });
}

/** A running API process and its base URL. */
export interface ApiProcess extends FarmProcess {
  url: string;
}

/**
 * Starts an API process (with the coordinator, and `workerSlots` solver slots in the same process
 * when asked) from the build, with the spec's games, on a free port (or on `port`) of loopback (or
 * of `host`), through `launcher` if given (another host's network, test-hosts.ts).
 */
export async function startApi(
  prefix: string,
  gamesModule: string,
  options: {
    workerSlots?: number;
    env?: Record<string, string>;
    port?: number;
    host?: string;
    launcher?: string[];
  } = {},
): Promise<ApiProcess> {
  const script = `
import { createFarmApp, listenFarmApp } from '${dist('apps/api/src/api.bootstrap.js')}';
import { loadFarmConfig } from '${dist('libs/queue/src/index.js')}';
const config = loadFarmConfig();
const app = await createFarmApp({ config, redisUrl: config.redisUrl, workerSlots: ${options.workerSlots ?? 0}, gamesModule: ${JSON.stringify(pathToFileURL(gamesModule).href)} });
app.enableShutdownHooks();
const url = await listenFarmApp(app, ${options.port ?? 0}, ${JSON.stringify(options.host ?? '127.0.0.1')});
process.stdout.write(JSON.stringify({ url }) + '\\n');
`;
  const { process: farmProcess, hello } = await startNode(
    script,
    farmEnv(prefix, options.env ?? {}),
    options.launcher,
  );
  return { ...farmProcess, url: (hello as { url: string }).url };
}

/**
 * Starts a worker process with `slots` solver slots, from the build, with the spec's games; its
 * solver limits and horizon lock come from the environment, as `satfarm worker` reads them. It
 * runs through `launcher` if given (another host's network, test-hosts.ts).
 */
export async function startWorker(
  prefix: string,
  gamesModule: string,
  slots = 1,
  env: Record<string, string> = {},
  launcher?: string[],
): Promise<FarmProcess> {
  const script = `
import { startWorkerApp } from '${dist('apps/worker/src/worker.bootstrap.js')}';
import { workerOptionsOf } from '${dist('apps/worker/src/worker.options.js')}';
import { loadFarmConfig } from '${dist('libs/queue/src/index.js')}';
const config = loadFarmConfig();
const app = await startWorkerApp({ ...workerOptionsOf(config, config.redisUrl, ${slots}), gamesModule: ${JSON.stringify(pathToFileURL(gamesModule).href)} });
app.enableShutdownHooks();
process.stdout.write(JSON.stringify({ ready: true }) + '\\n');
`;
  const { process: farmProcess } = await startNode(script, farmEnv(prefix, env), launcher);
  return farmProcess;
}

/** A temporary directory for a spec, and its removal. */
export function specDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'satfarm-farm-spec-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** `bin/satfarm serve` running, and the URL it printed. */
export interface ServeProcess extends FarmProcess {
  url: string;
}

/** Starts `bin/satfarm serve args...` and resolves once it prints the URL it serves on. */
export function startServe(args: string[], env: NodeJS.ProcessEnv): Promise<ServeProcess> {
  const child = spawn(join(repoRoot, 'bin/satfarm'), ['serve', ...args], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let ready = false;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    child.stdout.resume();
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      const match = /serving on (http:\/\/\S+)/.exec(stderr);
      if (match && !ready) {
        ready = true;
        resolve({
          pid: child.pid!,
          child,
          url: match[1]!,
          stderr: () => stderr,
          async stop(signal = 'SIGTERM') {
            if (child.exitCode !== null || child.signalCode !== null) return;
            child.kill(signal);
            const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
            await exited;
            clearTimeout(timer);
          },
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`satfarm serve exited with ${code}: ${stderr}`)));
  });
}
