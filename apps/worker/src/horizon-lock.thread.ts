import { parentPort, workerData } from 'node:worker_threads';

import { Job, Queue } from 'bullmq';

import { createRedisConnection, FarmKeys, QueueName } from '@satfarm/queue';

import { HorizonCancelListener } from './horizon-cancel.listener.js';
import type { HorizonLockMessage, HorizonLockThreadData } from './horizon-lock.keeper.js';
import { HorizonReportSender } from './horizon-report.sender.js';

/**
 * The thread behind `HorizonLockKeeper`: renews each held job's lock every half lock, raises a held
 * job's cancel flag when the farm's cancel channel names it, and sends a held job's started report
 * when its delay is up.
 */
const data = workerData as HorizonLockThreadData;
const heartbeat = new Float64Array(data.heartbeat);
const connection = createRedisConnection(data.redisUrl, { connectionName: 'satfarm-worker-locks' });
// The worker's own connection reports Redis outages; this one would only repeat them.
connection.on('error', () => undefined);
const queue = new Queue(data.queue, { connection, prefix: data.prefix });
queue.on('error', () => undefined);

/**
 * Held jobs by id: the lock's token, a handle on the job, its cancel flag and its started report's
 * timer. The handle is made, not fetched: a lock needs only the id, and a job's data holds its
 * instance (up to the API's body limit).
 */
const held = new Map<string, { token: string; job: Job; cancel: Int32Array; started?: NodeJS.Timeout }>();

const reportsQueue = new Queue(QueueName.reports, { connection, prefix: data.prefix });
reportsQueue.on('error', () => undefined);
const reports = new HorizonReportSender(reportsQueue);

parentPort?.on('message', (message: HorizonLockMessage) => {
  if ('hold' in message) {
    held.set(message.hold, {
      token: message.token,
      job: new Job(queue, 'horizon', {}, {}, message.hold),
      cancel: new Int32Array(message.cancel),
    });
  } else if ('started' in message) {
    const entry = held.get(message.started);
    if (entry === undefined) return;
    entry.started = setTimeout(() => {
      // Redis unreachable: the processor's own report meets the same outage, and retries it.
      if (held.get(message.started) === entry)
        void reports.send(message.report, message.attempt, message.run).catch(() => undefined);
    }, message.delayMs);
  } else {
    clearTimeout(held.get(message.release)?.started);
    held.delete(message.release);
  }
});

// The cancel channel, heard here too: the main thread's listener waits while a build holds its
// event loop, and the build asks for this flag as it grows.
const subscriber = connection.duplicate({ connectionName: 'satfarm-worker-cancels' });
subscriber.on('error', () => undefined);
const cancels = new HorizonCancelListener(subscriber, new FarmKeys(data.prefix), (id) => {
  const entry = held.get(id);
  if (entry !== undefined) Atomics.store(entry.cancel, 0, 1);
  return entry !== undefined;
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
await cancels.start();
parentPort?.postMessage('ready');
void loop();
