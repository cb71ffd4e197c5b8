import { useEffect, useState } from 'preact/hooks';

import { ApiError } from '../api/farm-api.client';
import type { BatchEventPayload, BatchResource } from '@satfarm/queue';
import { useFarm } from '../api/farm-connection.context';
import { subscribeBatch, unsubscribeBatch } from '../api/progress.socket';
import {
  addSample,
  type BatchCounts,
  jobsOver,
  newerCounts,
  type ProgressSample,
} from './batch-progress.model';

/** A batch as its page shows it: the last read, its newest counts, and what was heard over time. */
export interface LiveBatch {
  batch?: BatchResource;
  counts?: BatchCounts;
  done: boolean;
  /** Jobs over as heard, for the recent rate (docs/dashboard.md, Batches). */
  samples: ProgressSample[];
  error?: ApiError;
}

/** How often the batch is read while the socket is up (events carry the counts) and while it is down. */
const POLL_MS = { connected: 10_000, disconnected: 2_000 };

/**
 * Follows a batch: reads it, subscribes to its `batch` events on `/progress`, and reads it again
 * every 2 s while the socket is down (every 10 s while up, for anything an event missed). Counts
 * from events and reads are merged so that a late one never undoes a newer one.
 */
export function useLiveBatch(batchId: string): LiveBatch {
  const { api, socket } = useFarm();
  const [state, setState] = useState<LiveBatch>({ done: false, samples: [] });
  useEffect(() => {
    let alive = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    setState({ done: false, samples: [] });
    const heard = (counts: BatchCounts, done: boolean, batch?: BatchResource): void =>
      setState((s) => {
        const merged = newerCounts(s.counts, counts);
        return {
          ...s,
          ...(batch === undefined ? {} : { batch, error: undefined }),
          counts: merged,
          done: s.done || done,
          samples: addSample(s.samples, { at: Date.now(), over: jobsOver(merged) }),
        };
      });
    const load = async (): Promise<void> => {
      try {
        const batch = await api.batch(batchId);
        if (alive) heard(batch.counts, batch.done, batch);
      } catch (err) {
        if (alive)
          setState((s) => ({ ...s, error: err instanceof ApiError ? err : new ApiError(0, String(err)) }));
      }
    };
    const poll = async (): Promise<void> => {
      if (document.visibilityState === 'visible') await load();
      if (alive)
        timer = setTimeout(() => void poll(), socket.connected ? POLL_MS.connected : POLL_MS.disconnected);
    };
    const onBatch = (event: BatchEventPayload): void => {
      if (event.batchId === batchId) heard(event.counts, event.done);
    };
    const subscribe = (): void => {
      void subscribeBatch(socket, batchId).catch(() => undefined);
    };
    const reconnected = (): void => {
      subscribe();
      void load();
    };
    socket.on('batch', onBatch);
    socket.io.on('reconnect', reconnected);
    subscribe();
    void poll();
    return () => {
      alive = false;
      clearTimeout(timer);
      socket.off('batch', onBatch);
      socket.io.off('reconnect', reconnected);
      unsubscribeBatch(socket, batchId);
    };
  }, [batchId, api, socket]);
  return state;
}
