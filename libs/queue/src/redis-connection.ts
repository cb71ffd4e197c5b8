import { Redis, type RedisOptions } from 'ioredis';

/**
 * A Redis connection for the farm. `maxRetriesPerRequest: null` is what BullMQ's blocking
 * connections need; commands wait for a reconnect instead of failing.
 */
export function createRedisConnection(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, ...options });
}
