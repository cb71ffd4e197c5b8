import type { OnApplicationShutdown } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { Redis } from 'ioredis';

import { createRedisConnection, type FarmKeys } from '@satfarm/queue';

// A fixed window per tracker: count the hit, start the window on the first one, and block for
// `blockDuration` once the count passes the limit. One script, so replicas share the counts.
const INCREMENT = `
local hits = redis.call('INCR', KEYS[1])
if hits == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
local blockTtl = redis.call('PTTL', KEYS[2])
if blockTtl < 0 and hits > tonumber(ARGV[2]) then
  redis.call('SET', KEYS[2], '1', 'PX', ARGV[3])
  blockTtl = tonumber(ARGV[3])
end
if blockTtl < 0 then blockTtl = 0 end
return {hits, ttl, blockTtl}
`;

type IncrementCommand = (
  key: string,
  blockKey: string,
  ttl: number,
  limit: number,
  block: number,
) => Promise<number[]>;

/**
 * Rate-limit counters in Redis, shared by every API replica. Owns its connection, opened on the
 * first request and closed with the application.
 */
export class RedisThrottlerStorage implements ThrottlerStorage, OnApplicationShutdown {
  private connection?: Redis;
  private closing?: Promise<void>;

  constructor(
    private readonly redisUrl: string,
    private readonly keys: FarmKeys,
  ) {}

  private get redis(): Redis {
    if (this.connection === undefined) {
      this.connection = createRedisConnection(this.redisUrl, { connectionName: 'satfarm-rate-limit' });
      this.connection.on('error', () => undefined);
      this.connection.defineCommand('satfarmThrottle', { numberOfKeys: 2, lua: INCREMENT });
    }
    return this.connection;
  }

  /** Closes the connection once (the storage is registered in two modules, so it is asked twice). */
  onApplicationShutdown(): Promise<void> {
    const connection = this.connection;
    this.closing ??= connection
      ? connection.quit().then(
          () => undefined,
          () => connection.disconnect(),
        )
      : Promise.resolve();
    return this.closing;
  }

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string) {
    const counter = this.keys.rate(`${throttlerName}:${key}`);
    const redis = this.redis as unknown as { satfarmThrottle: IncrementCommand };
    const [hits = 0, ttlMs = 0, blockMs = 0] = await redis.satfarmThrottle(
      counter,
      `${counter}:blocked`,
      ttl,
      limit,
      blockDuration,
    );
    return {
      totalHits: hits,
      timeToExpire: Math.ceil(Math.max(0, ttlMs) / 1000),
      isBlocked: blockMs > 0,
      timeToBlockExpire: Math.ceil(blockMs / 1000),
    };
  }
}
