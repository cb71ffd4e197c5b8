import type { AddressInfo } from 'node:net';

import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';

import { InputError } from '@satfarm/games';
import { FarmKeys } from '@satfarm/queue';

import { importGameLookup, SATFARM_VERSION } from '@satfarm/engine';

import { AppModule } from './app.module.js';
import { API_KEYS, type ApiKeys } from './auth/api-keys.js';
import { CoordinatorService } from './coordinator/coordinator.service.js';
import { mountDashboard } from './dashboard/dashboard.static.js';
import type { FarmAppOptions } from './farm-app.options.js';
import { RedisIoAdapter } from './progress/redis-io.adapter.js';
import { mountQueueBoard } from './queues/queue-board.js';

/**
 * Builds the API application: JSON bodies up to the configured size, the Redis socket.io
 * adapter, the queue UI at `/queues`, OpenAPI at `/docs`, the dashboard at `/`. Not listening
 * yet; the caller decides how it shuts down (`enableShutdownHooks()`, or its own signal handling).
 */
export async function createFarmApp(options: FarmAppOptions): Promise<NestExpressApplication> {
  const games = options.gamesModule === undefined ? undefined : await importGameLookup(options.gamesModule);
  const resolved = { ...options, ...(games === undefined ? {} : { games }) };
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(resolved), {
    bodyParser: false,
    logger: ['error', 'warn'],
  });
  app.useBodyParser('json', { limit: options.config.maxBodyBytes });
  app.useWebSocketAdapter(
    new RedisIoAdapter(app, options.redisUrl, new FarmKeys(options.config.prefix).socketIo),
  );
  const farm = app.get(CoordinatorService);
  mountQueueBoard(app, [farm.runtime.horizons, farm.runtime.reports], app.get<ApiKeys>(API_KEYS));
  mountDashboard(app);
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('satfarm')
      .setDescription(
        'A SAT solver farm for games and puzzles: jobs, batches, live progress on socket.io /progress.',
      )
      .setVersion(SATFARM_VERSION)
      .addBearerAuth()
      .build(),
  );
  SwaggerModule.setup('docs', app, document);
  return app;
}

/**
 * Starts listening on `port` (0: any free port) and returns the base URL. A port in use is bad
 * input naming `port`; the application is closed on any failure to listen.
 */
export async function listenFarmApp(
  app: NestExpressApplication,
  port: number,
  host = '0.0.0.0',
): Promise<string> {
  try {
    await app.listen(port, host);
  } catch (err) {
    // Closed here: its Redis connections and worker slots would keep the process alive.
    await app.close().catch(() => undefined);
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new InputError('port', `${port} is in use on ${host}`);
    throw err;
  }
  const address = app.getHttpServer().address() as AddressInfo;
  return `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${address.port}`;
}
