import { Redis } from 'ioredis';

/** What Redis did for a stretch of work, from its own command statistics. */
export interface RedisCommands {
  /** Commands of every kind. */
  calls: number;
  /** Lua scripts run (EVAL and EVALSHA: BullMQ's atomic steps). */
  scripts: number;
  /** Redis's own time in those scripts, in milliseconds. */
  scriptMs: number;
  /** Redis's own time in all commands, in milliseconds. */
  totalMs: number;
}

/**
 * Runs `work` between a reset of Redis's command statistics and a reading of them. Only
 * meaningful on a Redis the farm has to itself (the benchmark's private one): the reset and the
 * counts are server-wide.
 */
export async function redisCommandsDuring<T>(
  redisUrl: string,
  work: () => Promise<T>,
): Promise<{ result: T; redis: RedisCommands }> {
  const client = new Redis(redisUrl, { lazyConnect: true });
  await client.connect();
  try {
    await client.config('RESETSTAT');
    const result = await work();
    const stats = await client.info('commandstats');
    const redis: RedisCommands = { calls: 0, scripts: 0, scriptMs: 0, totalMs: 0 };
    for (const [, name, calls, usec] of stats.matchAll(/^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/gm)) {
      // The reading itself (INFO) is left out; it is not the farm's.
      if (name === 'info') continue;
      redis.calls += Number(calls);
      redis.totalMs += Number(usec) / 1000;
      if (name === 'eval' || name === 'evalsha') {
        redis.scripts += Number(calls);
        redis.scriptMs += Number(usec) / 1000;
      }
    }
    return { result, redis };
  } finally {
    client.disconnect();
  }
}
