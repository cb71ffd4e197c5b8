import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Server } from 'socket.io';
import { io, type Socket as ClientSocket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import {
  type BatchResource,
  type JobEventPayload,
  type JobResource,
  type JobStatus,
  PROGRESS_NAMESPACE,
} from '@satfarm/queue';

import { ApiKeys } from '../auth/api-keys.js';
import type { CoordinatorService } from '../coordinator/coordinator.service.js';
import { ProgressGateway } from './progress.gateway.js';
import { ProgressRelay } from './progress.relay.js';

// A real socket.io server and client around the gateway and the relay. The coordinator is a
// stand-in: a job that ends at an exact point of a subscribe (while its state is read, or just
// before, with its broadcast still on the way) cannot be timed on a real farm.
type Read = (id: string) => Promise<JobResource | undefined>;
const state: { read: Read; batch?: BatchResource } = { read: () => Promise.resolve(undefined) };
const coordinator = {
  resource: (id: string) => state.read(id),
  batch: (id: string) => Promise.resolve(state.batch?.batchId === id ? state.batch : undefined),
  batchResults: (id: string) =>
    Promise.resolve(
      state.batch?.batchId === id
        ? (async function* () {
            for (const jobId of state.batch!.jobIds) {
              const job = await state.read(jobId);
              if (job !== undefined) yield job;
            }
          })()
        : undefined,
    ),
};

const server = new Server(createServer());
const namespace = server.of(PROGRESS_NAMESPACE);
const relay = new ProgressRelay();
const gateway = new ProgressGateway(relay, new ApiKeys([]), { coordinator } as unknown as CoordinatorService);
let url = '';
let client: ClientSocket;
let events: JobEventPayload[] = [];

function job(id: string, status: JobStatus): JobResource {
  return { id, status, bounds: { lower: 0, upper: 0 } } as unknown as JobResource;
}
function event(resource: JobResource): JobEventPayload {
  return { jobId: resource.id, status: resource.status, bounds: resource.bounds };
}
/** The `job` events `client` got for `jobId` in a final status, once all sent so far are in. */
async function finals(jobId: string): Promise<JobEventPayload[]> {
  // Packets keep their order on one connection: an acknowledgement comes after the events before it.
  await client.emitWithAck('unsubscribe', { jobId: 'flush' });
  return events.filter((e) => e.jobId === jobId && e.status !== 'running');
}

beforeAll(async () => {
  gateway.afterInit(namespace);
  namespace.on('connection', (socket) => {
    socket.on('subscribe', (body: unknown, ack: (a: unknown) => void) => {
      void gateway.subscribe(socket, body).then(ack);
    });
    socket.on('unsubscribe', (body: unknown, ack: (a: unknown) => void) => {
      void gateway.unsubscribe(socket, body).then(ack);
    });
  });
  const http = server.httpServer;
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});

beforeEach(async () => {
  events = [];
  client = io(`${url}${PROGRESS_NAMESPACE}`, { transports: ['websocket'] });
  client.on('job', (e: JobEventPayload) => events.push(e));
  await new Promise<void>((resolve) => client.once('connect', () => resolve()));
});

afterEach(() => {
  client.close();
  state.read = () => Promise.resolve(undefined);
  delete state.batch;
});

afterAll(async () => {
  await server.close();
});

describe(ProgressGateway.name, () => {
  it('gives the final event once to a client subscribing while the job ends', async () => {
    const done = job('j1', 'optimal');
    state.read = () => {
      relay.job(event(done));
      return Promise.resolve(done);
    };
    expect(await client.emitWithAck('subscribe', { jobId: 'j1' })).toMatchObject({ ok: true });
    expect(await finals('j1')).toHaveLength(1);
  });

  it('gives it once when the job ended just before and its broadcast comes after the subscribe', async () => {
    const done = job('j2', 'unsatisfiable');
    state.read = () => Promise.resolve(done);
    expect(await client.emitWithAck('subscribe', { jobId: 'j2' })).toMatchObject({ ok: true });
    relay.job(event(done));
    expect(await finals('j2')).toHaveLength(1);
  });

  it('gives each job of a batch its final event once, however its end falls against the subscribe', async () => {
    const [a, b, c] = [job('a', 'optimal'), job('b', 'failed'), job('c', 'satisfiable')];
    state.batch = { batchId: 'B', jobIds: ['a', 'b', 'c'] } as unknown as BatchResource;
    state.read = (id) => {
      // `a` ends while the batch's jobs are read; `b` is over with its broadcast on the way; `c` runs.
      if (id === 'a') relay.job(event(a), 'B');
      return Promise.resolve(id === 'a' ? a : id === 'b' ? b : job('c', 'running'));
    };
    expect(await client.emitWithAck('subscribe', { batchId: 'B' })).toMatchObject({ ok: true });
    relay.job(event(b), 'B');
    relay.job(event(c), 'B');
    for (const id of ['a', 'b', 'c']) expect(await finals(id)).toHaveLength(1);
  });

  it('answers an unknown job or batch naming the field, and joins no room', async () => {
    expect(await client.emitWithAck('subscribe', { jobId: 'ghost' })).toEqual({
      ok: false,
      field: 'jobId',
      error: "jobId: no job 'ghost'",
    });
    expect(await client.emitWithAck('subscribe', { batchId: 'none' })).toMatchObject({
      ok: false,
      field: 'batchId',
    });
    relay.job(event(job('ghost', 'running')), 'none');
    await finals('ghost');
    expect(events).toEqual([]);
    expect([...namespace.adapter.rooms.keys()].filter((r) => /ghost|none/.test(r))).toEqual([]);
  });

  it('leaves the rooms of a subscription on unsubscribe', async () => {
    state.read = (id) => Promise.resolve(job(id, 'optimal'));
    await client.emitWithAck('subscribe', { jobId: 'j3' });
    expect(namespace.adapter.rooms.has('job:j3')).toBe(true);
    await client.emitWithAck('unsubscribe', { jobId: 'j3' });
    expect([...namespace.adapter.rooms.keys()].filter((r) => r.includes('j3'))).toEqual([]);
  });
});
