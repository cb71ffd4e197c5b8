import { Redis, type RedisOptions } from 'ioredis';

/**
 * A Redis connection for the farm. `maxRetriesPerRequest: null` is what BullMQ's blocking
 * connections need; commands wait for a reconnect instead of failing.
 */
export function createRedisConnection(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, ...options });
}

/**
 * A Redis error as a log line or an answer: what failed, never where or with which credentials.
 * Socket errors (`connect ECONNREFUSED host:port`, `getaddrinfo ENOTFOUND host`) keep only the
 * system call and the code; any other message loses URLs and `host:port` pairs.
 */
export function describeRedisError(err: unknown): string {
  const e = err as Partial<NodeJS.ErrnoException> | null | undefined;
  if (typeof e?.code === 'string' && typeof e.syscall === 'string')
    return `redis unreachable (${e.syscall} ${e.code})`;
  const message = err instanceof Error ? err.message : String(err);
  return message
    .replace(/rediss?:\/\/\S*/g, 'redis://<redacted>')
    .replace(/\[?[\w.:-]*[\w\]]:\d{1,5}\b/g, '<redis address>');
}
