import type { QueueEvents } from 'bullmq';

/** The events of a BullMQ job that specs wait on. */
export type JobEventName = 'active' | 'completed' | 'failed';

/**
 * Every `active`, `completed` and `failed` event of a queue since the log began, by job id, so
 * that a spec waits on an event that may already have come (no polling: each wait is re-checked
 * on the events themselves).
 */
export class QueueEventLog {
  /** The events seen, in order, for each job id. */
  readonly events = new Map<string, JobEventName[]>();
  /** The reason of each job that failed. */
  readonly failedReasons = new Map<string, string>();
  /** The job ids in the order they became active. */
  readonly started: string[] = [];
  private readonly waiters = new Set<() => void>();

  constructor(queueEvents: QueueEvents) {
    queueEvents.on('active', ({ jobId }) => {
      this.started.push(jobId);
      this.record(jobId, 'active');
    });
    queueEvents.on('completed', ({ jobId }) => this.record(jobId, 'completed'));
    queueEvents.on('failed', ({ jobId, failedReason }) => {
      this.failedReasons.set(jobId, failedReason);
      this.record(jobId, 'failed');
    });
  }

  /** Whether `jobId` has had `event`. */
  has(jobId: string, event: JobEventName): boolean {
    return this.events.get(jobId)?.includes(event) ?? false;
  }

  /** Whether `jobId` has completed or failed. */
  ended(jobId: string): boolean {
    return this.has(jobId, 'completed') || this.has(jobId, 'failed');
  }

  /** Resolves once `jobId` has had `event`, at once if it has. */
  when(jobId: string, event: JobEventName): Promise<void> {
    return this.until(() => this.has(jobId, event));
  }

  /** Resolves once `check` holds, re-checked on every event. */
  until(check: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      const waiter = (): void => {
        if (!check()) return;
        this.waiters.delete(waiter);
        resolve();
      };
      this.waiters.add(waiter);
      waiter();
    });
  }

  private record(jobId: string, event: JobEventName): void {
    this.events.set(jobId, [...(this.events.get(jobId) ?? []), event]);
    for (const waiter of [...this.waiters]) waiter();
  }
}
