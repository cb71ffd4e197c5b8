import {
  createServer,
  type IncomingMessage,
  type Server as HttpServer,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

import { Server } from 'socket.io';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { PROGRESS_NAMESPACE, ProgressEvent } from '@satfarm/queue';

import { runCli } from './support/run-cli.js';

/**
 * A farm that answers wrongly, as a broken replica or a proxy in front of one does: its progress
 * websocket connects, and `POST /v1/jobs` gets whatever answer the case sets. The real farm never
 * answers so; these cases pin what `submit` makes of it: one line, no stack trace, nothing on
 * stdout, and exit 4 (the farm's fault) or 5 (a gateway answering for a farm that is not there).
 */
let http: HttpServer;
let io: Server;
let url: string;
let answer: (res: ServerResponse) => void = (res) => res.end();
let subscribeAck: { ok: boolean; error?: string } = { ok: true };

beforeAll(async () => {
  http = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () =>
      req.method === 'POST' && req.url === '/v1/jobs' ? answer(res) : res.writeHead(404).end(),
    );
  });
  io = new Server(http);
  io.of(PROGRESS_NAMESPACE).on('connection', (socket) => {
    socket.on(ProgressEvent.subscribe, (_payload: unknown, ack: (a: unknown) => void) => ack(subscribeAck));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await io?.close();
});

function submit(): ReturnType<typeof runCli> {
  return runCli(['submit', 'cnf', '--input', 'examples/php-6.cnf', '--api', url, '--no-progress']);
}

describe('satfarm submit against a farm that answers wrongly', () => {
  it('an HTTP 500 is one line naming the farm, the request and the message (exit 4)', async () => {
    answer = (res) =>
      res
        .writeHead(500, { 'content-type': 'application/json' })
        .end('{"statusCode":500,"message":"Internal server error"}');
    const run = await submit();
    expect(run.code).toBe(4);
    expect(run.stderr).toBe(
      `satfarm: internal error: the farm at ${url} answered POST /v1/jobs with HTTP 500: Internal server error\n`,
    );
    expect(run.stdout).toBe('');
  });

  it('a body that is not JSON is quoted, one line, without a stack trace (exit 4)', async () => {
    answer = (res) =>
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<html><body>Sign in</body></html>\n<p>more</p>');
    const run = await submit();
    expect(run.code).toBe(4);
    expect(run.stderr).toBe(
      `satfarm: internal error: the farm at ${url} answered POST /v1/jobs with HTTP 200 and a body that is not JSON: <html><body>Sign in</body></html>\n`,
    );
  });

  it('a gateway answering 502, 503 or 504 means the farm is not there (exit 5)', async () => {
    for (const status of [502, 503, 504]) {
      answer = (res) => res.writeHead(status, { 'content-type': 'text/plain' }).end('Service Unavailable');
      const run = await submit();
      expect(run.code).toBe(5);
      expect(run.stderr).toBe(
        `satfarm: cannot reach the farm at ${url}: HTTP ${status} Service Unavailable\n`,
      );
    }
  });

  it('a created job without an id, or a refused subscription, is the farm at fault (exit 4)', async () => {
    answer = (res) => res.writeHead(201, { 'content-type': 'application/json' }).end('{}');
    const noId = await submit();
    expect(noId.code).toBe(4);
    expect(noId.stderr).toBe(
      `satfarm: internal error: the farm at ${url} answered POST /v1/jobs with no job id\n`,
    );

    answer = (res) => res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":"42"}');
    subscribeAck = { ok: false, error: 'no such job' };
    const refused = await submit();
    expect(refused.code).toBe(4);
    expect(refused.stderr).toBe(
      `satfarm: internal error: the farm at ${url} answered the subscription to job 42 with no such job\n`,
    );
  });
});
