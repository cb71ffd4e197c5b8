import type { INestApplicationContext } from '@nestjs/common';
import { IoAdapter } from '@nestjs/platform-socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import type { Redis } from 'ioredis';

import { createRedisConnection } from '@satfarm/queue';

/**
 * socket.io with the Redis adapter: an emit to a room on one API replica reaches the room's
 * clients on every replica. Owns its publish and subscribe connections and closes them with the
 * application.
 */
export class RedisIoAdapter extends IoAdapter {
  private pub?: Redis;
  private sub?: Redis;

  constructor(
    app: INestApplicationContext,
    private readonly redisUrl: string,
    private readonly key: string,
  ) {
    super(app);
  }

  // Typed from the base class: @nestjs/platform-socket.io may carry its own copy of socket.io.
  override createIOServer(
    port: number,
    options?: Parameters<IoAdapter['createIOServer']>[1],
  ): ReturnType<IoAdapter['createIOServer']> {
    const server = super.createIOServer(port, options);
    this.pub ??= createRedisConnection(this.redisUrl, { connectionName: 'satfarm-io-pub' });
    this.sub ??= this.pub.duplicate({ connectionName: 'satfarm-io-sub' });
    for (const connection of [this.pub, this.sub]) connection.on('error', () => undefined);
    server.adapter(createAdapter(this.pub, this.sub, { key: this.key }));
    return server;
  }

  override async dispose(): Promise<void> {
    await super.dispose();
    for (const connection of [this.pub, this.sub]) {
      if (connection) await connection.quit().catch(() => connection.disconnect());
    }
  }
}
