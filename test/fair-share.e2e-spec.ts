import { Queue, type QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type FarmOverview, FarmKeys, type HorizonJob, horizonJobId } from '@satfarm/queue';

import { FairShareGate } from '../apps/api/src/coordinator/fair-share.gate.js';
import {
  addHorizons,
  HorizonDispatch,
  type HorizonToQueue,
} from '../apps/api/src/coordinator/horizon.dispatch.js';
import { type Farm, startFarm } from './support/farm.js';
import { http } from './support/farm-client.js';

// The gate as a coordinator runs it, against the real queue and one real worker process with one
// solver slot, so the order horizons start in is the order the farm serves them in.
let farm: Farm;
let keys: FarmKeys;
let redis: Redis;
let queue: Queue;
let events: QueueEvents;
const started: string[] = [];
const finished = new Set<string>();
const waiters: Array<() => void> = [];

/** Resolves when `check` holds, re-checked on every queue event. */
function when(check: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const waiter = (): void => {
      if (!check()) return;
      waiters.splice(waiters.indexOf(waiter), 1);
      resolve();
    };
    waiters.push(waiter);
    waiter();
  });
}

interface TestCoordinator {
  gate: FairShareGate;
  dispatch: HorizonDispatch;
  /** Releases on a timer and whenever a horizon starts, as a coordinator does on its reports. */
  start(): void;
  close(): Promise<void>;
}

/** A coordinator's gate and dispatch. */
function coordinator(lookahead: number): TestCoordinator {
  const gate = new FairShareGate(queue, redis, keys, (h) => addHorizons(queue, h), {
    lookahead,
    intervalMs: 50,
  });
  const onActive = (): void => void gate.release();
  return {
    gate,
    dispatch: new HorizonDispatch(queue, redis, keys, gate),
    start() {
      events.on('active', onActive);
      gate.start();
    },
    async close() {
      events.off('active', onActive);
      await gate.close();
    },
  };
}

const wake = (): void => [...waiters].forEach((w) => w());

/**
 * `n` horizons of tenant `tenant`: staircase horizons below the optimum (PHP(8, 7), a tenth of a
 * second each) when `slow`, else at the optimum (SAT at once).
 */
function horizons(tenant: string, n: number, priority = 0, slow = false): HorizonToQueue[] {
  return Array.from({ length: n }, (_, i) => {
    const payload: HorizonJob = {
      jobId: `${tenant}-${i}`,
      game: 'staircase',
      instance: { optimum: 3, lower: 0, holes: { 0: 7 } },
      t: slow ? 0 : 3,
      solver: 'kissat',
    };
    return { payload, priority, tenant };
  });
}

const idsOf = (list: HorizonToQueue[]): string[] =>
  list.map((h) => horizonJobId(h.payload.jobId, h.payload.t, h.payload.run));

/** Resolves on the next queue event. */
function nextEvent(): Promise<void> {
  return new Promise((resolve) => {
    const once = (): void => {
      waiters.splice(waiters.indexOf(once), 1);
      resolve();
    };
    waiters.push(once);
  });
}

/** Resolves once no horizon waits or runs, and every one that started has ended. */
async function drained(): Promise<void> {
  for (;;) {
    const next = nextEvent();
    const counts = await queue.getJobCounts('waiting', 'prioritized', 'active');
    if (
      counts.waiting! + counts.prioritized! + counts.active! === 0 &&
      started.every((id) => finished.has(id))
    ) {
      return;
    }
    await next;
  }
}

beforeAll(async () => {
  farm = await startFarm({ name: 'fair', apis: [], workers: 1 });
  keys = new FarmKeys(farm.prefix);
  redis = farm.redis();
  queue = new Queue('satfarm-horizons', { connection: redis, prefix: farm.prefix });
  events = await farm.queueEvents('satfarm-horizons');
  events.setMaxListeners(20);
  events.on('active', ({ jobId }) => {
    started.push(jobId);
    wake();
  });
  const ended = ({ jobId }: { jobId: string }): void => {
    finished.add(jobId);
    wake();
  };
  events.on('completed', ended);
  events.on('failed', ended);
});

afterAll(async () => {
  await queue?.close();
  await farm?.stop();
});

describe('the fair-share gate in front of one solver slot', () => {
  it('starts a late tenant’s horizons between a large batch’s, and a cancel drops pending ones', async () => {
    const sut = coordinator(2);
    sut.start();
    try {
      const batch = horizons('batch', 40, 0, true);
      const single = horizons('single', 4);
      await sut.dispatch.enqueue(batch);
      await sut.dispatch.enqueue(single);
      const singleIds = idsOf(single);
      await when(() => singleIds.every((id) => finished.has(id)));

      // Queued first, the batch had at most the lookahead queued when the single job came; from
      // then on the two alternate. Without the gate the single job would start 41st.
      const order = started.filter((id) => id.startsWith('batch-') || id.startsWith('single-'));
      const lastSingle = Math.max(...singleIds.map((id) => order.indexOf(id)));
      expect(lastSingle).toBeLessThan(2 + 2 * single.length + 1);
      expect(order.slice(0, lastSingle + 1).filter((id) => id.startsWith('batch-')).length).toBeLessThan(
        2 + single.length + 1,
      );

      await sut.dispatch.removeWaiting(idsOf(batch));
      expect(await sut.gate.pending()).toBe(0);
      await drained();
      const batchStarted = new Set(started.filter((id) => id.startsWith('batch-')));
      expect(batchStarted.size).toBeLessThan(batch.length);
      expect([...batchStarted].every((id) => finished.has(id))).toBe(true);
      expect(await redis.exists(keys.fairTenants)).toBe(0);
    } finally {
      await sut.close();
    }
  });

  it('gives a tenant ten priority points higher twice the releases, and starves neither', async () => {
    const sut = coordinator(1);
    try {
      const low = horizons('low', 30, 0);
      const high = horizons('high', 30, 10);
      // Held together, released together: the shares show from the first release on.
      await sut.gate.hold([...low, ...high]);
      const from = started.length;
      sut.start();
      await when(() => started.length - from >= 18);
      const first = started.slice(from, from + 18);
      const highs = first.filter((id) => id.startsWith('high-')).length;
      expect(highs).toBeGreaterThanOrEqual(11);
      expect(highs).toBeLessThanOrEqual(13);
      expect(first.length - highs).toBeGreaterThanOrEqual(5);
      await sut.dispatch.removeWaiting([...idsOf(low), ...idsOf(high)]);
      await drained();
    } finally {
      await sut.close();
    }
  });

  it('keeps pending horizons across a coordinator restart: none lost, none run twice', async () => {
    const first = coordinator(2);
    first.start();
    const work = horizons('restart', 12);
    await first.dispatch.enqueue(work);
    await first.close();
    const pendingAtStop = await first.gate.pending();
    expect(pendingAtStop).toBeGreaterThan(0);

    // The next coordinator resumes: it queues every in-flight horizon again.
    const second = coordinator(2);
    try {
      expect(await second.gate.hold(work)).toBe(0);
      expect(await second.gate.pending()).toBe(pendingAtStop);
      second.start();
      const ids = idsOf(work);
      await when(() => ids.every((id) => finished.has(id)));
      await drained();
      for (const id of ids) expect(started.filter((s) => s === id)).toHaveLength(1);
      expect(await second.gate.pending()).toBe(0);
    } finally {
      await second.close();
    }
  });
});

describe('a farm with the gate, through the API', () => {
  it('runs a job submitted during a batch beside the batch, and a batch cancel empties its pending set', async () => {
    // A farm of its own: one API process with one solver slot.
    const own = await startFarm({ name: 'fair-api', apis: [{ workerSlots: 1 }] });
    const { api, progress } = own;
    try {
      const order: string[] = [];
      const ownEvents = await own.queueEvents('satfarm-horizons');
      ownEvents.on('active', ({ jobId }) => order.push(jobId));
      // Each batch job: horizon 0 UNSAT (PHP(8, 7)), horizon 1 SAT; two in flight per job.
      const slow = { game: 'staircase', instance: { optimum: 1, lower: 0, holes: { 0: 7 } } };
      const batch = await http<{ batchId: string; jobIds: string[] }>(api.url, 'POST', '/v1/batches', {
        jobs: Array.from({ length: 40 }, () => slow),
      });
      expect(batch.status).toBe(201);
      const single = await http<{ id: string }>(api.url, 'POST', '/v1/jobs', slow);
      expect((await progress.subscribe({ jobId: single.body.id })).ok).toBe(true);
      expect(await progress.jobEnd(single.body.id)).toMatchObject({ status: 'optimal' });

      // The single job's horizons ran among the first of the batch's 80, not after them.
      const singleStarts = order
        .map((id, i) => (id.startsWith(`${single.body.id}.`) ? i : -1))
        .filter((i) => i >= 0);
      expect(singleStarts).toHaveLength(2);
      expect(Math.max(...singleStarts)).toBeLessThan(20);

      const farm = await http<FarmOverview>(api.url, 'GET', '/v1/farm');
      expect(farm.body.pending).toBeGreaterThan(0);
      expect(farm.body.queueDepth).toBeGreaterThanOrEqual(farm.body.pending);
      expect((await http(api.url, 'DELETE', `/v1/batches/${batch.body.batchId}`)).status).toBe(200);
      const after = await http<FarmOverview>(api.url, 'GET', '/v1/farm');
      expect(after.body.pending).toBe(0);
    } finally {
      await own.stop();
    }
  });
});
