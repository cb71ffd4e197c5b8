import { parentPort, workerData } from 'node:worker_threads';

import { Job, Queue } from 'bullmq';

import { createRedisConnection } from '@satfarm/queue';

import type { HorizonLockMessage, HorizonLockThreadData } from './horizon-lock.keeper.js';

/** The thread behind `HorizonLockKeeper`: renews each held job's lock every half lock. */
const data = workerData as HorizonLockThreadData;
const heartbeat = new Float64Array(data.heartbeat);
const connection = createRedisConnection(data.redisUrl, { connectionName: 'satfarm-worker-locks' });
// The worker's own connection reports Redis outages; this one would only repeat them.
connection.on('error', () => undefined);
const queue = new Queue(data.queue, { connection, prefix: data.prefix });
queue.on('error', () => undefined);

/**
 * Held jobs by id: the lock's token, and a handle on the job. The handle is made, not fetched: a
 * lock needs only the id, and a job's data holds its instance (up to the API's body limit).
 */
const held = new Map<string, { token: string; job: Job }>();

parentPort?.on('message', (message: HorizonLockMessage) => {
  if ('hold' in message)
    held.set(message.hold, { token: message.token, job: new Job(queue, 'horizon', {}, {}, message.hold) });
  else held.delete(message.release);
});

async function renew(): Promise<void> {
  // A main thread silent for this long is hung, not building: let its horizons go.
  if (Date.now() - heartbeat[0]! > data.maxBlockMs) return;
  await Promise.all(
    [...held].map(async ([id, entry]) => {
      try {
        // 0: the lock is gone or another worker's now, so there is nothing of ours to keep.
        if ((await entry.job.extendLock(entry.token, data.lockMs)) === 0 && held.get(id) === entry)
          held.delete(id);
      } catch {
        // Redis unreachable: try again next time (BullMQ's own renewal meets the same outage).
      }
    }),
  );
}

const period = Math.max(100, data.lockMs / 2);
const loop = async (): Promise<void> => {
  await renew();
  setTimeout(() => void loop(), period);
};
await queue.waitUntilReady();
parentPort?.postMessage('ready');
void loop();
