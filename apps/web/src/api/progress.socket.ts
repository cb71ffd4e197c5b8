import type { BatchEventPayload, HorizonEventPayload, JobEventPayload, JobResource } from '@satfarm/queue';
import { io, type Socket } from 'socket.io-client';

/** What the `/progress` namespace sends (docs/farm.md, Progress). */
export interface ProgressEvents {
  horizon: (event: HorizonEventPayload) => void;
  job: (event: JobEventPayload) => void;
  batch: (event: BatchEventPayload) => void;
}

/** The acknowledgement of `subscribe`. */
export type SubscribeAck = { ok: true; job?: JobResource } | { ok: false; error: string };

/** What the dashboard sends on `/progress`. */
export interface ProgressCommands {
  subscribe: (message: { jobId: string } | { batchId: string }, ack: (answer: SubscribeAck) => void) => void;
  unsubscribe: (message: { jobId: string } | { batchId: string }) => void;
}

/** A socket on `/progress`; its path follows the page's base, so a path prefix works too. */
export type ProgressSocket = Socket<ProgressEvents, ProgressCommands>;

/** Connects to the farm's `/progress` namespace, with the API key when one is set. */
export function connectProgress(base: URL, apiKey: string | undefined): ProgressSocket {
  return io(`${base.origin}/progress`, {
    path: `${base.pathname}socket.io`,
    transports: ['websocket'],
    ...(apiKey ? { auth: { token: apiKey } } : {}),
  });
}

/** Emits `subscribe` `{jobId}` and resolves with the acknowledgement. */
export function subscribeJob(socket: ProgressSocket, jobId: string): Promise<SubscribeAck> {
  return socket.emitWithAck('subscribe', { jobId });
}

/** Emits `unsubscribe` `{jobId}` (nothing to wait for). */
export function unsubscribeJob(socket: ProgressSocket, jobId: string): void {
  socket.emit('unsubscribe', { jobId });
}

/** Emits `subscribe` `{batchId}` (its `batch` events follow) and resolves with the acknowledgement. */
export function subscribeBatch(socket: ProgressSocket, batchId: string): Promise<SubscribeAck> {
  return socket.emitWithAck('subscribe', { batchId });
}

/** Emits `unsubscribe` `{batchId}`. */
export function unsubscribeBatch(socket: ProgressSocket, batchId: string): void {
  socket.emit('unsubscribe', { batchId });
}
