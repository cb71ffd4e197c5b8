import { connect } from 'node:net';

import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';

import { LocalRedisServer, RedisServerMissingError } from './local-redis.server.js';

describe(LocalRedisServer.name, () => {
  it('starts a private redis-server that answers on its loopback URL, and stops it', async () => {
    const server = await LocalRedisServer.start();
    const client = new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
    await client.connect();
    expect(await client.ping()).toBe('PONG');
    // No persistence: nothing is saved, so nothing is left behind.
    expect(await client.config('GET', 'save')).toEqual(['save', '']);
    client.disconnect();
    await server.stop();
    // Its port refuses connections once it is stopped.
    const refused = await new Promise<string | undefined>((resolve) => {
      const socket = connect(server.port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(undefined);
      });
      socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code));
    });
    expect(refused).toBe('ECONNREFUSED');
  });

  it('names the missing program when there is no redis-server', async () => {
    await expect(LocalRedisServer.start('/nonexistent/redis-server')).rejects.toBeInstanceOf(
      RedisServerMissingError,
    );
  });
});
