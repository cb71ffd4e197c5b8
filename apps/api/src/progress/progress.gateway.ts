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
import { ProgressRelay } from './progress.relay.js';

/** The acknowledgement of `subscribe`: the job or batch as it is now, or why not. */
export type SubscribeAck =
  { ok: true; job?: JobResource; batch?: BatchResource } | { ok: false; error: string };

/**
 * The `/progress` namespace (DESIGN.md §6). A client emits `subscribe` `{jobId}` or `{batchId}`
 * and then receives `horizon` and `job` events. The acknowledgement carries the job (or batch) as
 * it is at that moment, and a job that is already over gets its final `job` event at once, so a
 * client that subscribes late never waits for an end that has passed.
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
    const { coordinator } = this.farm;
    if ('jobId' in parsed.data) {
      const { jobId } = parsed.data;
      await client.join(progressRoom.job(jobId));
      const job = await coordinator.resource(jobId);
      if (job === undefined) return { ok: false, error: `no job ${jobId}` };
      if (isFinalStatus(job.status)) client.emit(ProgressEvent.job, finalEvent(job));
      return { ok: true, job };
    }
    const { batchId } = parsed.data;
    await client.join(progressRoom.batch(batchId));
    const batch = await coordinator.batch(batchId);
    if (batch === undefined) return { ok: false, error: `no batch ${batchId}` };
    const jobs = await Promise.all(batch.jobIds.map((id) => coordinator.resource(id)));
    for (const job of jobs)
      if (job !== undefined && isFinalStatus(job.status)) client.emit(ProgressEvent.job, finalEvent(job));
    return { ok: true, batch };
  }

  @SubscribeMessage(ProgressEvent.unsubscribe)
  async unsubscribe(
    @ConnectedSocket() client: Socket,
    @MessageBody() body: unknown,
  ): Promise<{ ok: boolean }> {
    const parsed = SubscribeMessageSchema.safeParse(body);
    if (!parsed.success) return { ok: false };
    await client.leave(
      'jobId' in parsed.data ? progressRoom.job(parsed.data.jobId) : progressRoom.batch(parsed.data.batchId),
    );
    return { ok: true };
  }
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
