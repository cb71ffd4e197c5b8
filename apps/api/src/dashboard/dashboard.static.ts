import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';

interface NodeRequest {
  method: string;
  path: string;
}
interface NodeResponse {
  status(code: number): { type(t: string): { send(body: string): void } };
}

/**
 * Where the built dashboard is: `dist/web` (apps/web, built by `npm run build`), found from this
 * module whether it runs from `dist/` or from the sources.
 */
export function dashboardDir(): string | undefined {
  return [new URL('../../../../web/', import.meta.url), new URL('../../../../dist/web/', import.meta.url)]
    .map((url) => fileURLToPath(url))
    .find((dir) => existsSync(join(dir, 'index.html')));
}

/**
 * Serves the dashboard's static files at `/`: hashed assets cached for a year, the page itself
 * revalidated each time. The page holds no data (it reads `/v1` like any client), so it needs no
 * API key. Without a build, `/` says how to make one.
 */
export function mountDashboard(app: NestExpressApplication, dir = dashboardDir()): void {
  if (dir === undefined) {
    new Logger('Dashboard').warn('not built: `npm run build` builds it into dist/web');
    app.use('/', (req: NodeRequest, res: NodeResponse, next: () => void) => {
      if (req.method === 'GET' && req.path === '/')
        return res.status(503).type('text/plain').send('The dashboard is not built: run npm run build.\n');
      next();
    });
    return;
  }
  app.useStaticAssets(join(dir, 'assets'), {
    prefix: '/assets/',
    immutable: true,
    maxAge: '365d',
    index: false,
  });
  app.useStaticAssets(dir, { index: 'index.html', maxAge: 0, redirect: false });
}
