import { Inject } from '@nestjs/common';
import {
  ConnectedSocket,
  MessageBody,
  type OnGatewayInit,
  SubscribeMessage,
  WebSocketGateway,
} from '@nestjs/websockets';
import type { Namespace, Socket } from 'socket.io';

import {
  type BatchResource,
  isFinalStatus,
  type JobEventPayload,
  type JobResource,
  PROGRESS_NAMESPACE,
  ProgressEvent,
  progressRoom,
  SubscribeMessageSchema,
} from '@satfarm/queue';

import { API_KEYS, ApiKeys } from '../auth/api-keys.js';
import { CoordinatorService } from '../coordinator/coordinator.service.js';
import { finalSentRoom, ProgressRelay } from './progress.relay.js';

/** The acknowledgement of `subscribe`: the job or batch as it is now, or why not. */
export type SubscribeAck =
  | { ok: true; job?: JobResource; batch?: BatchResource }
  | { ok: false; error: string; field?: 'jobId' | 'batchId' };

/** What the gateway keeps on a client: per subscription room, the final rooms it joined. */
interface ClientData {
  finalSent?: Map<string, string[]>;
}

/**
 * The `/progress` namespace (docs/farm.md#progress-socketio-namespace-progress). A client emits
 * `subscribe` `{jobId}` or `{batchId}` and then receives `horizon` and `job` events. The
 * acknowledgement carries the job (or batch) as it is at that moment, and a job that is already
 * over gets its final `job` event at once, so a client that subscribes late never waits for an end
 * that has passed; each job's final event reaches the client once, whether the job ends before,
 * during or after the subscribe.
 */
@WebSocketGateway({ namespace: PROGRESS_NAMESPACE, cors: { origin: true } })
export class ProgressGateway implements OnGatewayInit<Namespace> {
  constructor(
    @Inject(ProgressRelay) private readonly relay: ProgressRelay,
    @Inject(API_KEYS) private readonly keys: ApiKeys,
    @Inject(CoordinatorService) private readonly farm: CoordinatorService,
  ) {}

  afterInit(namespace: Namespace): void {
    this.relay.attach(namespace);
    // With API keys set, a connection without one is refused before it joins (connect_error).
    namespace.use((client, next) => {
      const auth = client.handshake.auth as { token?: unknown };
      const token =
        typeof auth.token === 'string'
          ? auth.token
          : ApiKeys.fromHeader(client.handshake.headers.authorization);
      next(
        this.keys.accepts(token)
          ? undefined
          : new Error('unauthorized: connect with auth { token: <API key> }'),
      );
    });
  }

  @SubscribeMessage(ProgressEvent.subscribe)
  async subscribe(@ConnectedSocket() client: Socket, @MessageBody() body: unknown): Promise<SubscribeAck> {
    const parsed = SubscribeMessageSchema.safeParse(body);
    if (!parsed.success) return { ok: false, error: 'expected { jobId } or { batchId }' };
    // The final `job` events the rooms deliver to this client while the state is read.
    const delivered = new Set<string>();
    const record = (event: string, payload?: Partial<JobEventPayload>): void => {
      const { jobId, status } = payload ?? {};
      if (event === ProgressEvent.job && jobId !== undefined && status !== undefined && isFinalStatus(status))
        delivered.add(jobId);
    };
    client.onAnyOutgoing(record);
    try {
      return 'jobId' in parsed.data
        ? await this.subscribeJob(client, parsed.data.jobId, delivered)
        : await this.subscribeBatch(client, parsed.data.batchId, delivered);
    } finally {
      client.offAnyOutgoing(record);
    }
  }

  @SubscribeMessage(ProgressEvent.unsubscribe)
  async unsubscribe(
    @ConnectedSocket() client: Socket,
    @MessageBody() body: unknown,
  ): Promise<{ ok: boolean }> {
    const parsed = SubscribeMessageSchema.safeParse(body);
    if (!parsed.success) return { ok: false };
    const room =
      'jobId' in parsed.data ? progressRoom.job(parsed.data.jobId) : progressRoom.batch(parsed.data.batchId);
    const data = client.data as ClientData;
    const finals = data.finalSent?.get(room) ?? [];
    data.finalSent?.delete(room);
    for (const joined of [room, ...finals]) await client.leave(joined);
    return { ok: true };
  }

  // Each joins its room before it reads: an event after the read reaches the room, so none is
  // lost in between. An unknown id leaves the room again.
  private async subscribeJob(client: Socket, jobId: string, delivered: Set<string>): Promise<SubscribeAck> {
    const room = progressRoom.job(jobId);
    await client.join(room);
    const job = await this.farm.coordinator.resource(jobId);
    if (job === undefined) {
      await client.leave(room);
      return { ok: false, field: 'jobId', error: `jobId: no job '${jobId}'` };
    }
    if (isFinalStatus(job.status)) sendFinal(client, room, job, delivered);
    return { ok: true, job };
  }

  private async subscribeBatch(
    client: Socket,
    batchId: string,
    delivered: Set<string>,
  ): Promise<SubscribeAck> {
    const { coordinator } = this.farm;
    const room = progressRoom.batch(batchId);
    await client.join(room);
    const batch = await coordinator.batch(batchId);
    if (batch === undefined) {
      await client.leave(room);
      return { ok: false, field: 'batchId', error: `batchId: no batch '${batchId}'` };
    }
    for await (const job of (await coordinator.batchResults(batchId)) ?? []) {
      if (isFinalStatus(job.status)) sendFinal(client, room, job, delivered);
    }
    return { ok: true, batch };
  }
}

/**
 * Gives `client` the final `job` event of a job it found over, unless its room delivered that
 * event during the read. One still on its way (the job ended just before the read) will not
 * come: the client joins the job's final room in the same turn of the event loop as this emit
 * (joining is synchronous with socket.io's Redis adapter), and the relay's final broadcasts leave
 * that room out, on every replica.
 */
function sendFinal(client: Socket, via: string, job: JobResource, delivered: Set<string>): void {
  if (delivered.has(job.id)) return;
  client.emit(ProgressEvent.job, finalEvent(job));
  const room = finalSentRoom(job.id);
  void client.join(room);
  // Left again on unsubscribe (and with the connection), so a long-lived client does not gather them.
  const data = client.data as ClientData;
  data.finalSent ??= new Map();
  const joined = data.finalSent.get(via);
  if (joined === undefined) data.finalSent.set(via, [room]);
  else joined.push(room);
}

function finalEvent(job: JobResource): JobEventPayload {
  return {
    jobId: job.id,
    status: job.status,
    bounds: job.bounds,
    ...(job.horizon === undefined ? {} : { horizon: job.horizon }),
    ...(job.solution === undefined ? {} : { solution: job.solution }),
  };
}
