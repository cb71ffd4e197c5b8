import { io, type Socket } from 'socket.io-client';

import type {
  BatchEventPayload,
  BatchResource,
  HorizonEventPayload,
  JobEventPayload,
  JobResource,
} from '@satfarm/queue';

const FINAL = new Set(['optimal', 'satisfiable', 'unsatisfiable', 'unknown', 'failed', 'cancelled']);

/** An HTTP answer: status and parsed JSON body. */
export interface HttpAnswer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/** Calls the farm's HTTP API. */
export async function http<T = unknown>(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<HttpAnswer<T>> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: response.status, body: parsed as T, headers: response.headers };
}

// Shared with the farm benchmarks, which read the same metrics.
export { metricValue } from '../../bench/farm/metric-value.js';

/**
 * A client of the `/progress` websocket that records every event and lets a spec wait for the
 * ones it needs (no polling: each wait resolves on the event itself, or on one already seen).
 */
export class ProgressClient {
  readonly horizons: HorizonEventPayload[] = [];
  readonly jobs: JobEventPayload[] = [];
  /** `batch` events, each with when it arrived (epoch ms). */
  readonly batches: Array<BatchEventPayload & { at: number }> = [];
  private readonly waiters: Array<() => void> = [];

  private constructor(private readonly socket: Socket) {
    socket.on('horizon', (e: HorizonEventPayload) => {
      this.horizons.push(e);
      this.wake();
    });
    socket.on('job', (e: JobEventPayload) => {
      this.jobs.push(e);
      this.wake();
    });
    socket.on('batch', (e: BatchEventPayload) => {
      this.batches.push({ ...e, at: Date.now() });
      this.wake();
    });
  }

  static async connect(url: string, token?: string): Promise<ProgressClient> {
    const socket = io(`${url}/progress`, {
      transports: ['websocket'],
      ...(token ? { auth: { token } } : {}),
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', (err) => {
        socket.close();
        reject(err);
      });
    });
    return new ProgressClient(socket);
  }

  /** Emits `subscribe` and returns the acknowledgement. */
  subscribe(
    message: { jobId: string } | { batchId: string },
  ): Promise<{ ok: boolean; job?: JobResource; batch?: BatchResource; error?: string }> {
    return this.socket.emitWithAck('subscribe', message) as Promise<{
      ok: boolean;
      job?: JobResource;
      batch?: BatchResource;
      error?: string;
    }>;
  }

  /** Resolves with the first final `job` event of `jobId`. */
  jobEnd(jobId: string): Promise<JobEventPayload> {
    return this.until(() => this.jobs.find((e) => e.jobId === jobId && FINAL.has(e.status)));
  }

  /** Resolves with the first `horizon` event of `jobId` at `t` in `state`. */
  horizon(jobId: string, t: number, state: HorizonEventPayload['state']): Promise<HorizonEventPayload> {
    return this.until(() => this.horizons.find((e) => e.jobId === jobId && e.t === t && e.state === state));
  }

  /** Resolves with the first `horizon` event that `matches`. */
  horizonWhere(matches: (e: HorizonEventPayload) => boolean): Promise<HorizonEventPayload> {
    return this.until(() => this.horizons.find(matches));
  }

  /** Resolves with the first `batch` event that `matches`. */
  batchWhere(matches: (e: BatchEventPayload) => boolean): Promise<BatchEventPayload & { at: number }> {
    return this.until(() => this.batches.find(matches));
  }

  /** Resolves once a final `job` event has arrived for each of `jobIds`. */
  allEnded(jobIds: readonly string[]): Promise<Map<string, JobEventPayload>> {
    return this.until(() => {
      const ended = new Map<string, JobEventPayload>();
      const wanted = new Set(jobIds);
      for (const e of this.jobs)
        if (wanted.has(e.jobId) && FINAL.has(e.status) && !ended.has(e.jobId)) ended.set(e.jobId, e);
      return jobIds.every((id) => ended.has(id)) ? ended : undefined;
    });
  }

  /** Resolves with the first `batch` event of `batchId` that says it is done. */
  batchDone(batchId: string): Promise<BatchEventPayload> {
    return this.until(() => this.batches.find((e) => e.batchId === batchId && e.done));
  }

  close(): void {
    this.socket.close();
  }

  private until<T>(found: () => T | undefined): Promise<T> {
    return new Promise((resolve) => {
      const check = (): boolean => {
        const value = found();
        if (value === undefined) return false;
        resolve(value);
        return true;
      };
      if (check()) return;
      const waiter = (): void => {
        if (check()) this.waiters.splice(this.waiters.indexOf(waiter), 1);
      };
      this.waiters.push(waiter);
    });
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}
