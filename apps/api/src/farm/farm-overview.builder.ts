import type { FarmOverview, FarmWorker, QueueCountsView } from '@satfarm/queue';

/** A Redis client as BullMQ's `getWorkers()` lists it: CLIENT LIST fields, all strings. */
export type ClientListEntry = Record<string, string | undefined>;

/** What `GET /v1/farm` is built from, as read from Redis. */
export interface FarmReadings {
  /** The horizons queue's counts, and `pending`: those the fair-share gate holds back. */
  horizons: Record<string, number>;
  reports: Record<string, number>;
  workers: ClientListEntry[];
  /** Slot counts the workers announced, by worker name. */
  slots?: ReadonlyMap<string, number>;
  /** The horizons being solved, with the worker that runs each. */
  active?: ReadonlyArray<{ worker?: string; jobId: string; t: number; startedAt: number; summary?: string }>;
  jobs: { queued: number; running: number };
  now: number;
}

const STATES = ['waiting', 'prioritized', 'delayed', 'active', 'completed', 'failed'] as const;

/** The farm at a glance (`GET /v1/farm`) from the queues' counts and the workers' connections. */
export function buildFarmOverview(readings: FarmReadings): FarmOverview {
  const horizons = queueCounts(readings.horizons);
  return {
    at: new Date(readings.now).toISOString(),
    pending: readings.horizons.pending ?? 0,
    queueDepth: horizons.waiting + horizons.prioritized + horizons.delayed + (readings.horizons.pending ?? 0),
    activeSolvers: horizons.active,
    // A real CLIENT LIST entry has an address; BullMQ stands in one without for a Redis that
    // refuses the command, which is no worker.
    workers: readings.workers
      .filter((client) => client.addr !== undefined)
      .map((client) => farmWorker(client, readings))
      .sort((a, b) => a.name.localeCompare(b.name)),
    jobs: readings.jobs,
    queues: { horizons, reports: queueCounts(readings.reports) },
  };
}

function queueCounts(counts: Record<string, number>): QueueCountsView {
  const view = {} as QueueCountsView;
  for (const state of STATES) view[state] = counts[state] ?? 0;
  return view;
}

function farmWorker(client: ClientListEntry, readings: FarmReadings): FarmWorker {
  // BullMQ names a worker's connection `<queue client name>:w:<worker name>`.
  const raw = client.rawname ?? '';
  const at = raw.indexOf(':w:');
  const name = at < 0 ? (client.addr ?? 'unnamed') : raw.slice(at + 3);
  const slots = readings.slots?.get(name);
  return {
    name,
    ...(slots === undefined ? {} : { slots }),
    horizons: (readings.active ?? [])
      .filter((h) => h.worker === name)
      .map((h) => ({
        jobId: h.jobId,
        t: h.t,
        startedAt: new Date(h.startedAt).toISOString(),
        ...(h.summary === undefined ? {} : { summary: h.summary }),
      }))
      .sort((a, b) => a.startedAt.localeCompare(b.startedAt)),
    addr: client.addr ?? '',
    ageSec: seconds(client.age),
    idleSec: seconds(client.idle),
  };
}

function seconds(text: string | undefined): number {
  const n = Number(text);
  return Number.isInteger(n) && n >= 0 ? n : 0;
}
