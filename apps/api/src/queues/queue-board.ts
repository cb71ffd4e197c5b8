import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { INestApplication } from '@nestjs/common';
import type { Queue } from 'bullmq';

import { ApiKeys } from '../auth/api-keys.js';

interface NodeRequest {
  headers: { authorization?: string };
}
interface NodeResponse {
  statusCode: number;
  setHeader(name: string, value: string): void;
  end(body?: string): void;
}

/**
 * The queue UI (bull-board) at `/queues`, read-only. With API keys set it asks for one by HTTP
 * Basic auth (any user name, the key as password), which a browser can prompt for, or a Bearer
 * header.
 */
export function mountQueueBoard(
  app: INestApplication,
  queues: Queue[],
  keys: ApiKeys,
  path = '/queues',
): void {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(path);
  // @bull-board/express pins its own patch release of @bull-board/api: same interface, other type.
  type BoardServer = Parameters<typeof createBullBoard>[0]['serverAdapter'];
  createBullBoard({
    // Read-only: its write routes (add, retry, promote, clean, pause, empty, ...) would put jobs in
    // the queues unchecked or remove them behind the coordinator's back; jobs go through /v1.
    queues: queues.map((q) => new BullMQAdapter(q, { readOnlyMode: true })),
    serverAdapter: serverAdapter as unknown as BoardServer,
  });
  const guard = (req: NodeRequest, res: NodeResponse, next: () => void): void => {
    if (keys.accepts(ApiKeys.fromHeader(req.headers.authorization))) return next();
    res.statusCode = 401;
    res.setHeader('WWW-Authenticate', 'Basic realm="satfarm queues"');
    res.end('API key required');
  };
  app.use(path, guard, serverAdapter.getRouter() as unknown);
}
