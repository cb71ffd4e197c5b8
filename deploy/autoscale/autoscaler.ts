import { decideReplicas, FRESH_MEMORY, type ScalerMemory } from './replica-rule.js';
import type { PrometheusScaling } from './scaled-object.js';

/** The workload being scaled: a fleet's worker containers, say. */
export interface ReplicaTarget {
  /** Replicas running now. */
  actual(): Promise<number>;
  scaleTo(replicas: number): Promise<void>;
}

/** One row of the timeline: what the query read, what the rule asked, what was running. */
export interface TimelineRow {
  atSec: number;
  metric: number | null;
  desired: number;
  actual: number;
  reason: string;
}

export interface AutoscalerRun {
  scaling: PrometheusScaling;
  prometheusUrl: string;
  target: ReplicaTarget;
  /** Checked after each tick; the loop ends when it answers true. */
  done(rows: readonly TimelineRow[]): boolean | Promise<boolean>;
  onTick?(row: TimelineRow): void;
  signal?: AbortSignal;
}

/**
 * Reads the trigger's query from Prometheus every polling interval, as KEDA does, and scales the
 * target to what the rule decides. Ticks keep their schedule however long a scaling takes; a
 * late tick is recorded at the time it ran.
 */
export async function runAutoscaler(run: AutoscalerRun): Promise<TimelineRow[]> {
  const { scaling, target } = run;
  const rows: TimelineRow[] = [];
  const started = Date.now();
  let memory: ScalerMemory = FRESH_MEMORY;
  for (let tick = 0; !run.signal?.aborted; tick++) {
    const wait = started + tick * scaling.spec.pollingSec * 1000 - Date.now();
    if (wait > 0) await delay(wait, run.signal);
    if (run.signal?.aborted) break;
    const atSec = (Date.now() - started) / 1000;
    const metric = await readPrometheus(run.prometheusUrl, scaling.query);
    const current = await target.actual();
    const decision = decideReplicas(scaling.spec, memory, { atSec, metric, current });
    memory = decision.memory;
    if (decision.desired !== current) await target.scaleTo(decision.desired);
    const row: TimelineRow = {
      atSec: Math.round(atSec * 10) / 10,
      metric: metric ?? null,
      desired: decision.desired,
      actual: current,
      reason: decision.reason,
    };
    rows.push(row);
    run.onTick?.(row);
    if (await run.done(rows)) break;
  }
  return rows;
}

/**
 * An instant query's single value, as KEDA's Prometheus scaler takes it: undefined when the
 * server cannot be read or answers no series (KEDA counts both as a failed read).
 */
export async function readPrometheus(baseUrl: string, query: string): Promise<number | undefined> {
  try {
    const url = new URL('/api/v1/query', baseUrl);
    url.searchParams.set('query', query);
    const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
    if (!response.ok) return undefined;
    const body = (await response.json()) as {
      status: string;
      data?: { resultType: string; result: { value: [number, string] }[] };
    };
    const first = body.data?.result[0];
    if (body.status !== 'success' || !first) return undefined;
    const value = Number(first.value[1]);
    return Number.isFinite(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
