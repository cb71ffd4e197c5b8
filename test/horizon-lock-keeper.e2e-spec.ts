import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import type * as KeeperSource from '../apps/worker/src/horizon-lock.keeper.js';
import { deletePrefix, TEST_REDIS_URL, uniquePrefix } from './support/farm-processes.js';
import { repoRoot } from './support/run-cli.js';

type KeeperModule = typeof KeeperSource;

/**
 * The lock keeper of a worker (`HorizonLockKeeper`) on the real Redis, from the build (its thread
 * runs the built file): it keeps a horizon's lock while the event loop is held, and lets it go
 * when the loop has been held past its limit, as a hung process's must; it hears the farm's
 * cancels of the horizons it holds, and sends their started reports, while the loop is held.
 */
const prefix = uniquePrefix('keeper');
const queue = 'satfarm-horizons';
let redis: Redis;
let HorizonLockKeeper: KeeperModule['HorizonLockKeeper'];
const keepers: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  redis = new Redis(TEST_REDIS_URL);
  const built = pathToFileURL(join(repoRoot, 'dist/apps/worker/src/horizon-lock.keeper.js')).href;
  ({ HorizonLockKeeper } = (await import(built)) as KeeperModule);
});

afterEach(async () => {
  await Promise.all(keepers.splice(0).map((k) => k.close()));
});

afterAll(async () => {
  await redis?.quit();
  await deletePrefix(prefix);
});

/** Holds the event loop (as a formula build does) for `ms`. */
function holdEventLoop(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A lock as BullMQ takes it when a worker fetches job `id`: the token, expiring after `ms`. */
async function takeLock(id: string, token: string, ms: number): Promise<string> {
  const key = `${prefix}:${queue}:${id}:lock`;
  await redis.set(key, token, 'PX', ms);
  return key;
}

async function keeper(lockMs: number, maxBlockMs?: number) {
  const k = new HorizonLockKeeper({
    redisUrl: TEST_REDIS_URL,
    prefix,
    queue,
    lockMs,
    ...(maxBlockMs === undefined ? {} : { maxBlockMs }),
  });
  keepers.push(k);
  await k.ready();
  return k;
}

describe('HorizonLockKeeper', () => {
  it("keeps a held job's lock through an event loop held for three lock durations, then lets it expire once released", async () => {
    const sut = await keeper(1000);
    const key = await takeLock('j1.t5', 'token-1', 1000);
    sut.hold('j1.t5', 'token-1');
    holdEventLoop(3000);
    expect(await redis.get(key)).toBe('token-1');
    sut.release('j1.t5');
    await sleep(2000);
    expect(await redis.get(key)).toBeNull();
  });

  it('never renews a lock another token holds', async () => {
    const sut = await keeper(1000);
    const key = await takeLock('j2.t5', 'theirs', 1000);
    sut.hold('j2.t5', 'ours');
    await sleep(2000);
    expect(await redis.get(key)).toBeNull();
  });

  it('stops renewing once the event loop has been held past its limit, as in a hung process', async () => {
    const sut = await keeper(1000, 1500);
    const key = await takeLock('j3.t5', 'token-3', 1000);
    sut.hold('j3.t5', 'token-3');
    holdEventLoop(4000);
    expect(await redis.get(key)).toBeNull();
  });

  it("raises a held horizon's cancel flag while the event loop is held, and only the ones the cancel names", async () => {
    const sut = await keeper(1000);
    sut.hold('j4.t5', 'token-4');
    sut.hold('j5.t5', 'token-5');
    await sleep(100);
    const cancel = { horizonJobIds: ['j4.t5', 'not-held.t1'], reason: 'dominated', decidedAt: Date.now() };
    // Sent, then the loop is held: only another thread can raise the flag before it turns again.
    void redis.publish(`${prefix}:farm:cancel`, JSON.stringify(cancel));
    const end = Date.now() + 2000;
    while (Date.now() < end && !sut.cancelRequested('j4.t5'));
    expect(sut.cancelRequested('j4.t5')).toBe(true);
    expect(sut.cancelRequested('j5.t5')).toBe(false);
    expect(sut.cancelRequested('not-held.t1')).toBe(false);
    // A horizon let go and held again (a retry) starts with its flag down.
    sut.release('j4.t5');
    sut.hold('j4.t5', 'token-4b');
    expect(sut.cancelRequested('j4.t5')).toBe(false);
  });

  it("sends a held horizon's started report after its delay while the event loop is held, and none for one released first", async () => {
    const sut = await keeper(1000);
    const report = (jobId: string) => ({
      kind: 'started' as const,
      jobId,
      game: 'snake',
      t: 5,
      worker: 'w:1',
      at: 1,
    });
    sut.hold('j6.t5', 'token-6');
    sut.reportStartedAfter('j6.t5', 50, report('j6'), 0, undefined);
    sut.hold('j7.t5', 'token-7');
    sut.reportStartedAfter('j7.t5', 300, report('j7'), 0, undefined);
    sut.release('j7.t5');
    holdEventLoop(1000);
    const reportsKey = (id: string) => `${prefix}:satfarm-reports:${id}`;
    // Stored under the id the worker's own sender gives it, so that one sent by both is stored once.
    expect(JSON.parse((await redis.hget(reportsKey('j6.t5.started.a0'), 'data'))!)).toEqual(report('j6'));
    await sleep(500);
    expect(await redis.exists(reportsKey('j7.t5.started.a0'))).toBe(0);
  });
});
