import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

  it("removes the directories of servers whose process is gone (SIGKILLed), and no live one's", async () => {
    const parent = mkdtempSync(join(tmpdir(), 'satfarm-redis-spec-'));
    try {
      const dead = spawnSync('true').pid;
      mkdirSync(join(parent, `satfarm-redis-${dead}-abc123`));
      mkdirSync(join(parent, `satfarm-redis-${process.ppid}-def456`));
      mkdirSync(join(parent, 'satfarm-redis-ghi789'));
      const server = await LocalRedisServer.start('redis-server', parent);
      const during = readdirSync(parent).sort();
      await server.stop();
      expect(during).toHaveLength(3);
      expect(during).not.toContain(`satfarm-redis-${dead}-abc123`);
      expect(during).toContain(`satfarm-redis-${process.ppid}-def456`);
      expect(during).toContain('satfarm-redis-ghi789');
      expect(during.some((name) => name.startsWith(`satfarm-redis-${process.pid}-`))).toBe(true);
      // Its own directory goes with it.
      expect(readdirSync(parent).sort()).toEqual(
        [`satfarm-redis-${process.ppid}-def456`, 'satfarm-redis-ghi789'].sort(),
      );
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it('names the missing program when there is no redis-server', async () => {
    await expect(LocalRedisServer.start('/nonexistent/redis-server')).rejects.toBeInstanceOf(
      RedisServerMissingError,
    );
  });
});
