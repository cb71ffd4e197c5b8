import type { HorizonEventPayload, JobEventPayload, JobResource } from '@satfarm/queue';
import { useEffect, useState } from 'preact/hooks';

import { ApiError } from '../api/farm-api.client';
import { useFarm } from '../api/farm-connection.context';
import { subscribeJob, unsubscribeJob } from '../api/progress.socket';
import {
  applyHorizonEvent,
  applyJobEvent,
  isJobOver,
  type JobTimeline,
  timelineFromResource,
} from './job-timeline.model';

/** A job as the job view shows it: its resource (with the drawing) and its live timeline. */
export interface LiveJob {
  job?: JobResource;
  timeline?: JobTimeline;
  error?: ApiError;
}

/**
 * Follows one job: reads its resource, subscribes to its events on `/progress` and applies them
 * to the timeline, and reads the resource again when the job ends (for the drawing of the answer)
 * or the socket reconnects. Events that arrive before the first read wait for it.
 */
export function useLiveJob(jobId: string): LiveJob {
  const { api, socket } = useFarm();
  const [state, setState] = useState<LiveJob>({});
  useEffect(() => {
    let alive = true;
    let timeline: JobTimeline | undefined;
    let pending: Array<(t: JobTimeline) => JobTimeline> = [];
    setState({});
    const apply = (change: (t: JobTimeline) => JobTimeline): void => {
      if (timeline === undefined) {
        pending.push(change);
        return;
      }
      timeline = change(timeline);
      const next = timeline;
      setState((s) => ({ ...s, timeline: next }));
    };
    const load = async (): Promise<void> => {
      try {
        const job = await api.job(jobId);
        if (!alive) return;
        let next = timelineFromResource(job, Date.now(), timeline);
        for (const change of pending) next = change(next);
        pending = [];
        timeline = next;
        setState({ job, timeline: next });
      } catch (err) {
        if (alive)
          setState((s) => ({ ...s, error: err instanceof ApiError ? err : new ApiError(0, String(err)) }));
      }
    };
    const onHorizon = (event: HorizonEventPayload): void => {
      if (event.jobId === jobId) apply((t) => applyHorizonEvent(t, event, Date.now()));
    };
    const onJob = (event: JobEventPayload): void => {
      if (event.jobId !== jobId) return;
      apply((t) => applyJobEvent(t, event, Date.now()));
      if (isJobOver(event.status)) void load();
    };
    const subscribe = (): void => {
      void subscribeJob(socket, jobId).catch(() => undefined);
    };
    const reconnected = (): void => {
      subscribe();
      void load();
    };
    socket.on('horizon', onHorizon);
    socket.on('job', onJob);
    socket.io.on('reconnect', reconnected);
    subscribe();
    void load();
    return () => {
      alive = false;
      socket.off('horizon', onHorizon);
      socket.off('job', onJob);
      socket.io.off('reconnect', reconnected);
      unsubscribeJob(socket, jobId);
    };
  }, [jobId, api, socket]);
  return state;
}

/** The page's clock, ticking every `intervalMs` while `running`. */
export function useNow(intervalMs: number, running: boolean): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs, running]);
  return running ? now : Date.now();
}
