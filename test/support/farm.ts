import { QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';

import { type HttpAnswer, http, ProgressClient } from './farm-client.js';
import {
  type ApiProcess,
  deletePrefix,
  type FarmProcess,
  specDir,
  startApi,
  startWorker,
  TEST_REDIS_URL,
  uniquePrefix,
  writeFarmGamesModule,
} from './farm-processes.js';
import { QueueEventLog } from './queue-event-log.js';

/** How an API process of a farm starts (see startApi). */
export type ApiOptions = NonNullable<Parameters<typeof startApi>[2]>;

/** How a worker process of a farm starts. */
export interface WorkerOptions {
  slots?: number;
  env?: Record<string, string>;
  /** Runs it through this command prefix (another host's network, test-hosts.ts). */
  launcher?: string[];
}

/** What a spec's farm runs. */
export interface FarmOptions {
  /** Names the farm's key prefix, which no other spec or run shares. */
  name: string;
  /** The API processes to start, at once; one plain API by default, none with `[]`. */
  apis?: ApiOptions[];
  /** Worker processes to start with it, each with `slots` solver slots (1 by default). */
  workers?: number;
  slots?: number;
  /** The environment of every process of the farm, under each one's own. */
  env?: Record<string, string>;
  /** The Redis every process uses: the test Redis by default. */
  redisUrl?: string;
  /** The games module of its processes, in place of the farm's own (which it may import). */
  games?: string;
  /** Whether to connect a `/progress` client to the first API (when there is one), or with this token. */
  progress?: boolean | { token: string };
}

/**
 * A farm of a spec: API and worker processes from the build on one key prefix, with the spec's
 * games module (the registry's games and `staircase`) and a temporary directory. Everything it
 * started, or a spec started through it, ends at `stop()`: clients closed, processes stopped,
 * the prefix's keys deleted (on the test Redis) and the directory removed.
 */
export class Farm {
  readonly prefix: string;
  readonly redisUrl: string;
  /** A temporary directory of the spec's, removed at `stop()`. */
  readonly dir: string;
  /** The games module every process of the farm loads. */
  readonly games: string;
  readonly apis: ApiProcess[] = [];
  readonly workers: FarmProcess[] = [];
  private readonly removeDir: () => void;
  private readonly closers: Array<() => Promise<unknown> | void> = [];
  private firstProgress?: ProgressClient;

  constructor(private readonly options: FarmOptions) {
    this.prefix = uniquePrefix(options.name);
    this.redisUrl = options.redisUrl ?? TEST_REDIS_URL;
    const spec = specDir();
    this.dir = spec.dir;
    this.removeDir = spec.remove;
    this.games = options.games ?? writeFarmGamesModule(this.dir);
  }

  /** The first API process. */
  get api(): ApiProcess {
    const api = this.apis[0];
    if (api === undefined) throw new Error(`the farm ${this.prefix} runs no API`);
    return api;
  }

  /** The `/progress` client of the first API, connected at the start. */
  get progress(): ProgressClient {
    if (this.firstProgress === undefined) throw new Error(`the farm ${this.prefix} has no progress client`);
    return this.firstProgress;
  }

  /** Calls the first API's HTTP API. */
  http<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<HttpAnswer<T>> {
    return http<T>(this.api.url, method, path, body, headers);
  }

  /** Starts another API process on the farm. */
  async startApi(options: ApiOptions = {}): Promise<ApiProcess> {
    const [api] = await this.startApis([options]);
    return api;
  }

  /** Starts another worker process on the farm. */
  async startWorker(options: WorkerOptions = {}): Promise<FarmProcess> {
    const [worker] = await this.startWorkers([options]);
    return worker;
  }

  /** Starts API processes at once; keeps them in the order asked, and each that started. */
  async startApis<const T extends readonly ApiOptions[]>(
    options: T,
  ): Promise<{ -readonly [K in keyof T]: ApiProcess }> {
    const started = await Promise.allSettled(
      options.map((api) =>
        startApi(this.prefix, this.games, { ...api, env: { ...this.processEnv(), ...api.env } }),
      ),
    );
    return this.keep(started, this.apis) as { -readonly [K in keyof T]: ApiProcess };
  }

  /** Starts worker processes at once; keeps them in the order asked, and each that started. */
  async startWorkers<const T extends readonly WorkerOptions[]>(
    options: T,
  ): Promise<{ -readonly [K in keyof T]: FarmProcess }> {
    const started = await Promise.allSettled(
      options.map(({ slots = 1, env = {}, launcher }) =>
        startWorker(this.prefix, this.games, slots, { ...this.processEnv(), ...env }, launcher),
      ),
    );
    return this.keep(started, this.workers) as { -readonly [K in keyof T]: FarmProcess };
  }

  /** Stops every worker process the farm runs (SIGTERM, their drain), and forgets them. */
  async stopWorkers(): Promise<void> {
    await Promise.all(this.workers.splice(0).map((worker) => worker.stop()));
  }

  /** A `/progress` client of `api`, closed at `stop()`. */
  async connectProgress(api: ApiProcess = this.api, token?: string): Promise<ProgressClient> {
    const client = await ProgressClient.connect(api.url, token);
    this.closers.push(() => client.close());
    return client;
  }

  /** A Redis connection to the farm's Redis (BullMQ's settings), closed at `stop()`. */
  redis(): Redis {
    const connection = new Redis(this.redisUrl, { maxRetriesPerRequest: null });
    this.closers.push(() => connection.quit().catch(() => connection.disconnect()));
    return connection;
  }

  /** BullMQ's events of the farm's queue `queue`, listening once this resolves; closed at `stop()`. */
  async queueEvents(queue: string): Promise<QueueEvents> {
    const events = new QueueEvents(queue, { connection: this.redis(), prefix: this.prefix });
    this.closers.push(() => events.close());
    await events.waitUntilReady();
    return events;
  }

  /** A log of the farm's queue `queue`'s job events, from the moment this resolves. */
  async queueLog(queue: string): Promise<QueueEventLog> {
    return new QueueEventLog(await this.queueEvents(queue));
  }

  /** Ends everything the farm started, even when a part of it fails; then reports the failure. */
  async stop(): Promise<void> {
    const failures: unknown[] = [];
    // Last opened, first closed: a queue's events before the connection they listen on.
    for (const close of this.closers.splice(0).reverse())
      await Promise.resolve()
        .then(close)
        .catch((error: unknown) => failures.push(error));
    const ended = await Promise.allSettled([...this.apis, ...this.workers].map((p) => p.stop()));
    if (this.redisUrl === TEST_REDIS_URL)
      await deletePrefix(this.prefix).catch((error: unknown) => failures.push(error));
    this.removeDir();
    for (const result of ended) if (result.status === 'rejected') failures.push(result.reason);
    if (failures.length > 0) throw failures[0];
  }

  /** Starts what `options` asks for, at once, and the first API's progress client. */
  async start(): Promise<void> {
    const { apis = [{}], workers = 0, slots = 1, progress = true } = this.options;
    await Promise.all([
      this.startApis(apis),
      this.startWorkers(Array.from({ length: workers }, () => ({ slots }))),
    ]);
    if (progress !== false && this.apis.length > 0)
      this.firstProgress = await this.connectProgress(
        this.api,
        typeof progress === 'object' ? progress.token : undefined,
      );
  }

  /** Adds the processes that started to `into`, in order; throws the first failure to start. */
  private keep<T>(started: PromiseSettledResult<T>[], into: T[]): T[] {
    const ready = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    into.push(...ready);
    const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    return ready;
  }

  /** The environment each process starts with, under its own. */
  private processEnv(): Record<string, string> {
    return {
      ...this.options.env,
      ...(this.options.redisUrl === undefined ? {} : { REDIS_URL: this.redisUrl }),
    };
  }
}

/**
 * Starts a farm for a spec (one API by default; `workers`, `slots`, `env`: see FarmOptions) and
 * resolves once every process is ready. A farm that fails to start is stopped before the error
 * is thrown, so that nothing it started is left running.
 */
export async function startFarm(options: FarmOptions): Promise<Farm> {
  const farm = new Farm(options);
  try {
    await farm.start();
  } catch (error) {
    await farm.stop().catch(() => undefined);
    throw error;
  }
  return farm;
}
