import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import { Redis } from 'ioredis';
import { io, type Socket } from 'socket.io-client';

import { LocalRedisServer } from '../../apps/api/src/embedded/local-redis.server.js';
import type { HorizonEventPayload, JobEventPayload } from '@satfarm/queue';

const FINAL = new Set(['optimal', 'satisfiable', 'unsatisfiable', 'unknown', 'failed', 'cancelled']);

/** A farm started for a benchmark, on its own Redis prefix. */
export interface BenchFarm {
  url: string;
  /** The Redis the farm runs on, and its key prefix. */
  redisUrl: string;
  prefix: string;
  /** Process ids of the API (and coordinator) and of each worker process. */
  pids: { api: number; workers: number[] };
  /** Stops the farm, deletes its keys, stops the private Redis if one was started. */
  stop(): Promise<void>;
}

/**
 * Starts a farm (bench/farm/farm-server.ts) with `slots` solver slots, on `REDIS_URL` if set,
 * otherwise on a private redis-server (as `satfarm serve` does). Rate limiting is off. With
 * `workerProcesses` > 0 the slots run in that many separate worker processes (a fleet on one
 * machine, each a `satfarm worker` with the benchmark games) instead of the API's process.
 */
export async function startBenchFarm(slots: number, workerProcesses = 0): Promise<BenchFarm> {
  const local = process.env.REDIS_URL ? undefined : await LocalRedisServer.start();
  const redisUrl = process.env.REDIS_URL ?? local!.url;
  const prefix = `satfarm-bench-${process.pid}`;
  const server = join(dirname(fileURLToPath(import.meta.url)), 'farm-server.js');
  const env = { ...process.env, REDIS_URL: redisUrl, SATFARM_PREFIX: prefix, SATFARM_RATE_LIMIT: '0' };
  const workerMain = join(dirname(fileURLToPath(import.meta.url)), 'farm-worker.js');
  // Node options for the farm's processes only, e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof' to profile them.
  const nodeArgs = (process.env.SATFARM_BENCH_NODE_ARGS ?? '').split(/\s+/).filter((a) => a !== '');
  const workers = Array.from({ length: workerProcesses }, (_, i) => {
    const share = Math.floor(slots / workerProcesses) + (i < slots % workerProcesses ? 1 : 0);
    return spawn(process.execPath, [...nodeArgs, workerMain], {
      env: { ...env, SATFARM_WORKER_SLOTS: String(share) },
      stdio: 'inherit',
    });
  });
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, server], {
    env: { ...env, SATFARM_WORKER_SLOTS: workerProcesses > 0 ? '' : String(slots) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = Promise.all(
    [child, ...workers].map((c) => new Promise<void>((r) => c.once('exit', () => r()))),
  );
  const url = await new Promise<string>((resolveUrl, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) =>
      resolveUrl((JSON.parse(line) as { url: string }).url),
    );
    child.once('exit', (code) => reject(new Error(`farm-server exited with ${code}`)));
  });
  return {
    url,
    redisUrl,
    prefix,
    pids: { api: child.pid!, workers: workers.map((w) => w.pid!) },
    async stop() {
      for (const c of [child, ...workers]) c.kill('SIGTERM');
      await exited;
      const redis = new Redis(redisUrl);
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', '1000');
        cursor = next;
        if (keys.length > 0) await redis.del(...keys);
      } while (cursor !== '0');
      await redis.quit();
      await local?.stop();
    },
  };
}

/** Posts JSON to the farm and returns the parsed answer (throws on an HTTP error). */
export async function post<T>(url: string, path: string, body: unknown): Promise<T> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Gets JSON (or text) from the farm. */
export async function get<T>(url: string, path: string): Promise<T> {
  const response = await fetch(`${url}${path}`);
  const text = await response.text();
  return (response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text) as T;
}

/** Follows jobs on `/progress`: resolves the end of a job the moment its final event arrives. */
export class JobFollower {
  private readonly ends = new Map<string, { at: number; event: JobEventPayload }>();
  private readonly waiting = new Map<string, Array<(end: { at: number; event: JobEventPayload }) => void>>();
  private readonly starts = new Map<string, number>();
  private readonly waitingStart = new Map<string, Array<(at: number) => void>>();

  private constructor(private readonly socket: Socket) {
    socket.on('horizon', (event: HorizonEventPayload) => {
      if (event.state !== 'running' || this.starts.has(event.jobId)) return;
      const at = performance.now();
      this.starts.set(event.jobId, at);
      for (const resolveStart of this.waitingStart.get(event.jobId) ?? []) resolveStart(at);
      this.waitingStart.delete(event.jobId);
    });
    socket.on('job', (event: JobEventPayload) => {
      if (!FINAL.has(event.status) || this.ends.has(event.jobId)) return;
      const end = { at: performance.now(), event };
      this.ends.set(event.jobId, end);
      for (const resolveEnd of this.waiting.get(event.jobId) ?? []) resolveEnd(end);
      this.waiting.delete(event.jobId);
    });
  }

  static async connect(url: string): Promise<JobFollower> {
    const socket = io(`${url}/progress`, { transports: ['websocket'] });
    await new Promise<void>((r, reject) => {
      socket.once('connect', () => r());
      socket.once('connect_error', reject);
    });
    return new JobFollower(socket);
  }

  /** Subscribes to a job or batch (the acknowledgement comes back first). */
  async subscribe(message: { jobId: string } | { batchId: string }): Promise<void> {
    await this.socket.emitWithAck('subscribe', message);
  }

  /** When (performance.now()) and how job `jobId` ended. */
  end(jobId: string): Promise<{ at: number; event: JobEventPayload }> {
    const known = this.ends.get(jobId);
    if (known) return Promise.resolve(known);
    return new Promise((r) => this.waiting.set(jobId, [...(this.waiting.get(jobId) ?? []), r]));
  }

  /** When (performance.now()) the first horizon of job `jobId` started on a solver slot. */
  started(jobId: string): Promise<number> {
    const known = this.starts.get(jobId);
    if (known !== undefined) return Promise.resolve(known);
    return new Promise((r) => this.waitingStart.set(jobId, [...(this.waitingStart.get(jobId) ?? []), r]));
  }

  close(): void {
    this.socket.close();
  }
}

/** The p-th percentile (0..100) of `values`, nearest rank. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Prints rows as an aligned table. */
export function printTable(rows: Array<Record<string, string | number>>): void {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  const cell = (v: string | number): string =>
    typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(2)) : v;
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c] ?? '').length)));
  const line = (values: string[]): string => values.map((v, i) => v.padStart(widths[i]!)).join('  ');
  console.log(line(columns));
  for (const row of rows) console.log(line(columns.map((c) => cell(row[c] ?? ''))));
}

/** Writes `bench/results/<name>.json` (run from the repository root). */
export async function writeResult(name: string, data: unknown): Promise<string> {
  const file = resolve('bench/results', `${name}.json`);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(data, null, 2)}\n`);
  return file;
}
