import { Injectable } from '@nestjs/common';
import type { Namespace } from 'socket.io';

import {
  type BatchEventPayload,
  type HorizonEventPayload,
  isFinalStatus,
  type JobEventPayload,
  ProgressEvent,
  progressRoom,
} from '@satfarm/queue';

import type { ProgressSink } from '../coordinator/sweep-coordinator.js';

/**
 * The room of the clients that `subscribe` itself gave a job's final `job` event (the job was over
 * when they subscribed): the broadcast of that event leaves them out, so none gets it twice.
 */
export const finalSentRoom = (jobId: string): string => `final:${jobId}`;

/**
 * The coordinator's progress sink: emits to the rooms of a job and of its batch on the
 * `/progress` namespace. With the Redis adapter the emit reaches clients on every API replica.
 * Events before the namespace exists are dropped (nobody can be subscribed yet). Solver progress
 * goes to this replica's clients only (each replica relays it from the queue's events itself).
 */
@Injectable()
export class ProgressRelay implements ProgressSink {
  private namespace?: Namespace;

  attach(namespace: Namespace): void {
    this.namespace = namespace;
  }

  horizon(event: HorizonEventPayload, batchId?: string): void {
    this.emit(ProgressEvent.horizon, event, event.jobId, batchId);
  }

  job(event: JobEventPayload, batchId?: string): void {
    this.emit(ProgressEvent.job, event, event.jobId, batchId, isFinalStatus(event.status));
  }

  batch(event: BatchEventPayload): void {
    this.namespace?.to(progressRoom.batch(event.batchId)).emit(ProgressEvent.batch, event);
  }

  solverProgress(event: HorizonEventPayload): void {
    this.namespace?.local.to(progressRoom.job(event.jobId)).emit(ProgressEvent.horizon, event);
  }

  private emit(
    name: string,
    payload: unknown,
    jobId: string,
    batchId: string | undefined,
    final = false,
  ): void {
    if (this.namespace === undefined) return;
    const rooms =
      batchId === undefined
        ? [progressRoom.job(jobId)]
        : [progressRoom.job(jobId), progressRoom.batch(batchId)];
    const to = this.namespace.to(rooms);
    (final ? to.except(finalSentRoom(jobId)) : to).emit(name, payload);
  }
}
