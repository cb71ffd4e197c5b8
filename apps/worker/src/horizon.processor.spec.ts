import { DelayedError, UnrecoverableError } from 'bullmq';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { VerificationError } from '@satfarm/engine';
import { InputError } from '@satfarm/games';
import { FarmKeys, type HorizonJob, type HorizonProgress, type HorizonReport } from '@satfarm/queue';

import { cancelAbortReason } from './horizon-abort.reason.js';
import {
  createHorizonProcessor,
  type HorizonJobHandle,
  type HorizonProcessorDeps,
} from './horizon.processor.js';
import { LOST_LOCK_ABORT_REASON } from './lost-lock.listener.js';
import type { HorizonRunOutcome } from './solve-horizon.usecase.js';

const keys = new FarmKeys('unit');
const WORKER = 'host-a:4242';

/** What happened, in order, across the job, the reports and the solver. */
type Entry =
  | { what: 'progress'; progress: unknown }
  | { what: 'report'; report: HorizonReport; attempt: number; run: number | undefined }
  | { what: 'solve'; job: HorizonJob };

/** A BullMQ horizon job as the processor sees it: its payload, attempts, progress and hand-back. */
class FakeHorizonJob implements HorizonJobHandle {
  readonly delayed: Array<{ timestamp: number; token: string | undefined }> = [];
  /** A hand-back fails as it does when the lock is another worker's now. */
  moveFails = false;

  constructor(
    private readonly log: Entry[],
    public data: unknown,
    public id = 'job-1.t7',
    public attemptsMade = 0,
    public opts = { attempts: 4 },
  ) {}

  updateProgress(progress: unknown): Promise<void> {
    this.log.push({ what: 'progress', progress });
    return Promise.resolve();
  }

  moveToDelayed(timestamp: number, token?: string): Promise<void> {
    if (this.moveFails) return Promise.reject(new Error('Missing lock for job'));
    this.delayed.push({ timestamp, token });
    return Promise.resolve();
  }
}

type Solve = HorizonProcessorDeps['solveHorizon']['execute'];

/** The processor with in-memory collaborators; `solve` plays the solver. */
function harness(solve: Solve, overrides: Partial<HorizonProcessorDeps> = {}) {
  const log: Entry[] = [];
  const markers = new Set<string>();
  let startedResolve!: () => void;
  const startedSent = new Promise<void>((resolve) => (startedResolve = resolve));
  let solvingResolve!: () => void;
  const solving = new Promise<void>((resolve) => (solvingResolve = resolve));
  const deps: HorizonProcessorDeps = {
    redis: { mget: (...ids: string[]) => Promise.resolve(ids.map((k) => (markers.has(k) ? '1' : null))) },
    keys,
    reports: {
      send: (report, attempt, run) => {
        log.push({ what: 'report', report, attempt, run });
        if (report.kind === 'started') startedResolve();
        return Promise.resolve();
      },
    },
    solveHorizon: {
      execute: (job, signal, onProgress) => {
        log.push({ what: 'solve', job });
        solvingResolve();
        return solve(job, signal, onProgress);
      },
    },
    worker: WORKER,
    // Quick horizons send no started report; the tests that want one lower it.
    startedReportDelayMs: 60_000,
    progressIntervalMs: 0,
    ...overrides,
  };
  const processor = createHorizonProcessor(deps);
  const reports = (): Array<Extract<Entry, { what: 'report' }>> =>
    log.filter((e): e is Extract<Entry, { what: 'report' }> => e.what === 'report');
  const newJob = (data: unknown, id?: string, attemptsMade?: number): FakeHorizonJob =>
    new FakeHorizonJob(log, data, id, attemptsMade);
  return { processor, log, markers, reports, newJob, startedSent, solving };
}

function payload(overrides: Partial<HorizonJob> = {}): HorizonJob {
  return { jobId: 'job-1', game: 'pigeons', instance: { pigeons: 7 }, t: 7, solver: 'kissat', ...overrides };
}

const stats = { vars: 42, clauses: 99, solver: 'kissat-4.0.0', solverMs: 3, encodeMs: 1 };

const satOutcome = (): HorizonRunOutcome => ({
  result: 'sat',
  startedAt: Date.now(),
  ms: 4,
  plan: { holes: [0, 1, 2, 3, 4, 5, 6] },
  planLength: 7,
  stats,
});

const cancelledOutcome = (): HorizonRunOutcome => ({
  result: 'cancelled',
  startedAt: Date.now(),
  ms: 2,
  stats,
});

/** A solver that answers `outcome` at once. */
const answers =
  (outcome: HorizonRunOutcome): Solve =>
  () =>
    Promise.resolve(outcome);

/** A solver that fails with `error` at once. */
const fails =
  (error: Error): Solve =>
  () =>
    Promise.reject(error);

/** A solver that runs until its signal fires, then answers `cancelled` as the real one does. */
const runsUntilAborted: Solve = (_job, signal) =>
  new Promise((resolve) => {
    if (signal.aborted) resolve(cancelledOutcome());
    signal.addEventListener('abort', () => resolve(cancelledOutcome()), { once: true });
  });

/** The processor's rejection, for asserting its class and message. */
async function rejection(run: Promise<unknown>): Promise<Error> {
  try {
    await run;
  } catch (err) {
    return err as Error;
  }
  throw new Error('the processor resolved; a rejection was expected');
}

afterEach(() => {
  vi.useRealTimers();
});

describe(createHorizonProcessor.name, () => {
  describe('a payload that does not match the horizon schema', () => {
    it('fails without a retry, naming the field at fault, and solves and reports nothing', async () => {
      const h = harness(answers(satOutcome()));
      const { t: _t, ...withoutT } = payload();
      const err = await rejection(h.processor(h.newJob(withoutT), 'tok', undefined));
      expect(err).toBeInstanceOf(UnrecoverableError);
      expect(err.message).toMatch(/^data\.t: /);
      expect(h.log).toEqual([]);
    });

    it('names an unknown field as unknown', async () => {
      const h = harness(answers(satOutcome()));
      const err = await rejection(h.processor(h.newJob({ ...payload(), bogus: 1 }), 'tok', undefined));
      expect(err).toBeInstanceOf(UnrecoverableError);
      expect(err.message).toBe('data.bogus: unknown field');
      expect(h.log).toEqual([]);
    });
  });

  describe('a horizon cancelled before it started', () => {
    it.each([
      ['its job', () => keys.cancelled('job-1')],
      ['the horizon itself', () => keys.cancelled('job-1.t7')],
    ])('is refused when %s carries a cancel marker, without solving or reporting', async (_, marker) => {
      const h = harness(answers(satOutcome()));
      h.markers.add(marker());
      const err = await rejection(h.processor(h.newJob(payload()), 'tok', undefined));
      expect(err).toBeInstanceOf(UnrecoverableError);
      expect(err.message).toBe('cancelled before it started');
      expect(h.log).toEqual([]);
    });

    it("is not refused for another horizon's marker", async () => {
      const h = harness(answers(satOutcome()));
      h.markers.add(keys.cancelled('job-1.t6'));
      await expect(h.processor(h.newJob(payload()), 'tok', undefined)).resolves.toMatchObject({
        result: 'sat',
      });
    });
  });

  describe('a solver answer', () => {
    it('is reported once, finished, with its run, attempt and worker, and summarised as the return value', async () => {
      const h = harness(answers(satOutcome()));
      const summary = await h.processor(h.newJob(payload({ run: 3 }), 'job-1.t7.r3', 2), 'tok', undefined);
      expect(summary).toEqual({ result: 'sat', ms: 4, worker: WORKER });
      expect(h.reports()).toEqual([
        {
          what: 'report',
          attempt: 2,
          run: 3,
          report: {
            kind: 'finished',
            jobId: 'job-1',
            game: 'pigeons',
            t: 7,
            worker: WORKER,
            run: 3,
            ...satOutcome(),
            startedAt: expect.any(Number) as unknown,
          },
        },
      ]);
    });

    it("reports a first run as run 1 and leaves the sender's run unset", async () => {
      const { plan: _plan, planLength: _length, ...answer } = satOutcome();
      const h = harness(answers({ ...answer, result: 'unsat' }));
      await expect(h.processor(h.newJob(payload()), 'tok', undefined)).resolves.toMatchObject({
        result: 'unsat',
      });
      expect(h.reports()).toMatchObject([
        { run: undefined, attempt: 0, report: { kind: 'finished', run: 1 } },
      ]);
    });

    it('solves the payload it was given, with the abort signal it was given', async () => {
      const controller = new AbortController();
      let seen: AbortSignal | undefined;
      const h = harness((_job, signal) => {
        seen = signal;
        return Promise.resolve(satOutcome());
      });
      await h.processor(h.newJob(payload({ t: 7, limitMs: 500 })), 'tok', controller.signal);
      expect(h.log[0]).toEqual({ what: 'solve', job: payload({ t: 7, limitMs: 500 }) });
      expect(seen).toBe(controller.signal);
    });
  });

  describe('the started report', () => {
    it('is sent, before the answer, for a horizon still running after the delay', async () => {
      const h = harness(
        async () => {
          await h.startedSent;
          return satOutcome();
        },
        { startedReportDelayMs: 5 },
      );
      await h.processor(h.newJob(payload({ run: 2 }), 'job-1.t7.r2'), 'tok', undefined);
      expect(h.reports().map((r) => [r.report.kind, r.run])).toEqual([
        ['started', 2],
        ['finished', 2],
      ]);
      expect(h.reports()[0]!.report).toEqual({
        kind: 'started',
        jobId: 'job-1',
        game: 'pigeons',
        t: 7,
        worker: WORKER,
        run: 2,
        at: expect.any(Number) as unknown,
      });
    });

    it('is skipped for a horizon that ends before the delay', async () => {
      const h = harness(answers(satOutcome()), { startedReportDelayMs: 60_000 });
      await h.processor(h.newJob(payload()), 'tok', undefined);
      expect(h.reports().map((r) => r.report.kind)).toEqual(['finished']);
    });
  });

  describe('progress', () => {
    const progress = (conflicts: number): HorizonProgress => ({
      ms: 1,
      conflicts,
      vars: 42,
      clauses: 99,
      solver: 'kissat',
    });

    it('sets at most one job progress per interval, and the last lands before the answer is reported', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const h = harness(
        (_job, _signal, onProgress) => {
          onProgress?.(progress(1)); // within the first interval: dropped
          vi.setSystemTime(Date.now() + 1000);
          onProgress?.(progress(2));
          vi.setSystemTime(Date.now() + 500);
          onProgress?.(progress(3)); // half an interval later: dropped
          vi.setSystemTime(Date.now() + 600);
          onProgress?.(progress(4));
          return Promise.resolve(satOutcome());
        },
        { progressIntervalMs: 1000 },
      );
      await h.processor(h.newJob(payload()), 'tok', undefined);
      expect(
        h.log.filter((e) => e.what !== 'solve').map((e) => (e.what === 'progress' ? e.progress : e.what)),
      ).toEqual([progress(2), progress(4), 'report']);
    });

    it('is not set after the answer, and a progress update that fails does not fail the horizon', async () => {
      let late: ((p: HorizonProgress) => void) | undefined;
      const h = harness((_job, _signal, onProgress) => {
        late = onProgress;
        onProgress?.(progress(1));
        return Promise.resolve(satOutcome());
      });
      const job = h.newJob(payload());
      job.updateProgress = () => Promise.reject(new Error('Missing key for job'));
      await expect(h.processor(job, 'tok', undefined)).resolves.toMatchObject({ result: 'sat' });
      const afterwards = vi.fn(() => Promise.resolve());
      job.updateProgress = afterwards;
      late?.(progress(2));
      expect(afterwards).not.toHaveBeenCalled();
    });
  });

  describe('a deliberate cancel', () => {
    it('reports the horizon finished as cancelled, with the latency since the decision, and fails it for good', async () => {
      const controller = new AbortController();
      const h = harness(runsUntilAborted);
      const running = h.processor(h.newJob(payload()), 'tok', controller.signal);
      await h.solving;
      const decidedAt = Date.now() - 250;
      controller.abort(cancelAbortReason(decidedAt));
      const err = await rejection(running);
      expect(err).toBeInstanceOf(UnrecoverableError);
      expect(err.message).toBe('cancelled');
      const reports = h.reports();
      expect(reports).toHaveLength(1);
      expect(reports[0]!.report).toMatchObject({
        kind: 'finished',
        result: 'cancelled',
        jobId: 'job-1',
        t: 7,
      });
      const latency = (reports[0]!.report as { cancelLatencyMs: number }).cancelLatencyMs;
      expect(latency).toBeGreaterThanOrEqual(250);
      expect(latency).toBeLessThan(10_000);
    });

    it('reports a zero latency rather than a negative one when the clocks disagree', async () => {
      const controller = new AbortController();
      const h = harness(runsUntilAborted);
      const running = h.processor(h.newJob(payload()), 'tok', controller.signal);
      await h.solving;
      controller.abort(cancelAbortReason(Date.now() + 60_000));
      await rejection(running);
      expect(h.reports()[0]!.report).toMatchObject({ result: 'cancelled', cancelLatencyMs: 0 });
    });
  });

  describe('an interruption (the worker shutting down)', () => {
    it('hands the horizon back to the queue at once, without spending an attempt, and reports no answer', async () => {
      const controller = new AbortController();
      const h = harness(runsUntilAborted);
      const job = h.newJob(payload());
      const running = h.processor(job, 'tok-1', controller.signal);
      const before = Date.now();
      await h.solving;
      controller.abort('shutdown');
      const err = await rejection(running);
      expect(err).toBeInstanceOf(DelayedError);
      expect(err.message).toMatch(/handed back/);
      expect(job.delayed).toHaveLength(1);
      expect(job.delayed[0]!.token).toBe('tok-1');
      expect(job.delayed[0]!.timestamp).toBeGreaterThanOrEqual(before);
      expect(job.delayed[0]!.timestamp).toBeLessThanOrEqual(Date.now());
      expect(h.reports()).toEqual([]);
    });

    it('hands the horizon back when the solver throws because of it', async () => {
      const controller = new AbortController();
      const h = harness(
        (_job, signal) =>
          new Promise((_resolve, reject) =>
            signal.addEventListener('abort', () => reject(new Error('solver killed')), { once: true }),
          ),
      );
      const job = h.newJob(payload());
      const running = h.processor(job, 'tok', controller.signal);
      await h.solving;
      controller.abort('shutdown');
      expect(await rejection(running)).toBeInstanceOf(DelayedError);
      expect(job.delayed).toHaveLength(1);
      expect(h.reports()).toEqual([]);
    });

    it('hands back unsolved a horizon taken while the worker drains, whatever its payload', async () => {
      const h = harness(answers(satOutcome()), { draining: () => true });
      const job = h.newJob({ not: 'a horizon' });
      expect(await rejection(h.processor(job, 'tok', undefined))).toBeInstanceOf(DelayedError);
      expect(job.delayed).toHaveLength(1);
      expect(h.log).toEqual([]);
    });

    it('leaves the horizon to a retry (a plain error) when it has no token to hand back with', async () => {
      const h = harness(answers(satOutcome()), { draining: () => true });
      const job = h.newJob(payload());
      const err = await rejection(h.processor(job, undefined, undefined));
      expect(err).not.toBeInstanceOf(DelayedError);
      expect(err).not.toBeInstanceOf(UnrecoverableError);
      expect(err.message).toMatch(/handed back/);
      expect(job.delayed).toEqual([]);
    });
  });

  describe('a lost lock', () => {
    it('reports nothing and leaves the horizon to its new holder (a plain error, no hand-back)', async () => {
      const controller = new AbortController();
      const h = harness(runsUntilAborted);
      const job = h.newJob(payload());
      job.moveFails = true;
      const running = h.processor(job, 'tok', controller.signal);
      await h.solving;
      controller.abort(LOST_LOCK_ABORT_REASON);
      const err = await rejection(running);
      expect(err).not.toBeInstanceOf(DelayedError);
      expect(err).not.toBeInstanceOf(UnrecoverableError);
      expect(err.message).toContain(LOST_LOCK_ABORT_REASON);
      expect(job.delayed).toEqual([]);
      expect(h.reports()).toEqual([]);
    });
  });

  describe('a solver failure', () => {
    it('is rethrown for a retry while attempts remain, reporting nothing', async () => {
      const crash = new Error('kissat exited with signal SIGSEGV');
      const h = harness(fails(crash));
      const err = await rejection(h.processor(h.newJob(payload(), 'job-1.t7', 2), 'tok', undefined));
      expect(err).toBe(crash);
      expect(h.reports()).toEqual([]);
    });

    it('is reported failed, and final, on the last attempt', async () => {
      const h = harness(fails(new Error('kissat exited with signal SIGSEGV')));
      const err = await rejection(h.processor(h.newJob(payload(), 'job-1.t7', 3), 'tok', undefined));
      expect(err).toBeInstanceOf(UnrecoverableError);
      expect(err.message).toBe('kissat exited with signal SIGSEGV');
      expect(h.reports()).toEqual([
        {
          what: 'report',
          attempt: 3,
          run: undefined,
          report: {
            kind: 'failed',
            jobId: 'job-1',
            game: 'pigeons',
            t: 7,
            worker: WORKER,
            run: 1,
            error: 'kissat exited with signal SIGSEGV',
          },
        },
      ]);
    });

    it.each([
      ['a failed verification', () => new VerificationError('pigeons', 7, 'two pigeons share hole 3')],
      ['bad input', () => new InputError('instance.pigeons', 'must be at least 1')],
    ])('is reported failed, and final, at the first attempt for %s', async (_, error) => {
      const thrown = error();
      const h = harness(fails(thrown));
      const err = await rejection(h.processor(h.newJob(payload()), 'tok', undefined));
      expect(err).toBeInstanceOf(UnrecoverableError);
      expect(err.message).toBe(thrown.message);
      expect(h.reports()).toMatchObject([{ attempt: 0, report: { kind: 'failed', error: thrown.message } }]);
    });
  });
  describe("a portfolio's sibling", () => {
    const sibling = (): HorizonJob => payload({ sibling: 2, solver: 'cadical', preset: 'sat', seed: 0 });

    it('runs its own configuration and names it, with its rank, in its reports', async () => {
      const h = harness(answers(satOutcome()));
      await h.processor(h.newJob(sibling(), 'job-1.t7.s2'), 'tok', undefined);
      expect(h.log[0]).toMatchObject({ what: 'solve', job: { solver: 'cadical', preset: 'sat', seed: 0 } });
      expect(h.reports().map((r) => r.report)).toEqual([
        expect.objectContaining({ kind: 'finished', result: 'sat', sibling: 2, config: 'cadical/sat/0' }),
      ]);
    });

    it('gives its slot back once horizons wait at two checks in a row, ending unknown without a retry', async () => {
      let asked = 0;
      const waiting = [false, true, false, true, true];
      const h = harness(runsUntilAborted, {
        giveWayCheckMs: 5,
        horizonsWaiting: () => Promise.resolve(waiting[asked++] ?? true),
      });
      const summary = await h.processor(h.newJob(sibling(), 'job-1.t7.s2'), 'tok', undefined);
      expect(asked).toBe(5);
      expect(summary).toMatchObject({ result: 'unknown', worker: WORKER });
      expect(h.reports().map((r) => r.report)).toEqual([
        expect.objectContaining({ kind: 'finished', result: 'unknown', reason: 'gave-way', sibling: 2 }),
      ]);
    });

    it("never gives way when it is the horizon's own run", async () => {
      let asked = 0;
      // A solve long enough for many checks, had there been any.
      const slow: Solve = () => new Promise((resolve) => setTimeout(() => resolve(satOutcome()), 40));
      const h = harness(slow, { giveWayCheckMs: 1, horizonsWaiting: () => Promise.resolve(++asked > 0) });
      await expect(h.processor(h.newJob(payload()), 'tok', undefined)).resolves.toMatchObject({
        result: 'sat',
      });
      expect(asked).toBe(0);
    });

    it('fails at once when its solver fails: a retry would only take a slot from the race', async () => {
      const h = harness(fails(new Error('cadical: not found')));
      const job = h.newJob(sibling(), 'job-1.t7.s2');
      const err = await rejection(h.processor(job, 'tok', undefined));
      expect(err).toBeInstanceOf(UnrecoverableError);
      expect(h.reports().map((r) => r.report)).toEqual([
        expect.objectContaining({ kind: 'failed', sibling: 2, error: 'cadical: not found' }),
      ]);
    });
  });

  describe('a cube of a split horizon', () => {
    const cube = (): HorizonJob =>
      payload({ cube: { index: 3, t: 5, lowerBound: 2, instance: { pigeons: 5, lowerBound: 2 } } });

    it("solves the cube's payload and reports under the horizon, naming the cube, with the cube's plan", async () => {
      const h = harness(answers({ ...satOutcome(), plan: { holes: [0, 1, 2, 3, 4] }, planLength: 5 }));
      const summary = await h.processor(h.newJob(cube(), 'job-1.t7.c3'), 'tok', undefined);
      expect(summary).toMatchObject({ result: 'sat', worker: WORKER });
      expect(h.log.find((e) => e.what === 'solve')).toEqual({ what: 'solve', job: cube() });
      expect(h.reports().map((r) => [r.report, r.attempt, r.run])).toEqual([
        [
          expect.objectContaining({
            kind: 'finished',
            jobId: 'job-1',
            t: 7,
            run: 1,
            cube: 3,
            result: 'sat',
            plan: { holes: [0, 1, 2, 3, 4] },
            planLength: 5,
          }),
          0,
          undefined,
        ],
      ]);
      expect(h.reports()[0]?.report).not.toHaveProperty('sibling');
    });

    it('refuses a cube cancelled before it started, by its own marker or its job', async () => {
      const h = harness(answers(satOutcome()));
      h.markers.add(keys.cancelled('job-1.t7.c3'));
      const err = await rejection(h.processor(h.newJob(cube(), 'job-1.t7.c3'), 'tok', undefined));
      expect(err).toBeInstanceOf(UnrecoverableError);
      expect(h.log.filter((e) => e.what === 'solve')).toEqual([]);
    });

    it('refuses a cube payload without its instance, naming the field', async () => {
      const h = harness(answers(satOutcome()));
      const bad = { ...payload(), cube: { index: 3, t: 5, lowerBound: 2 } };
      const err = await rejection(h.processor(h.newJob(bad, 'job-1.t7.c3'), 'tok', undefined));
      expect(err).toBeInstanceOf(UnrecoverableError);
      expect(err.message).toContain('cube.instance');
    });
  });
});
