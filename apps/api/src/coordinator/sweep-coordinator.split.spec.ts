import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import type { HorizonReport, JobRequest } from '@satfarm/queue';

import { SweepCoordinator } from './sweep-coordinator.js';
import { farm, InMemoryJobStore, NOW, report } from './testing/coordinator.fakes.js';

/**
 * A 3x3 in the quarter-turn metric. `R U2 F' L D B2` has a lower bound of 5: horizon 6 splits one
 * move deep into 12 cubes of horizon 5, six of which (lower bound 7) the bound refutes at once.
 * `R U F D` is 4 moves from solved: horizon 3 is refuted by the bound alone, and at horizon 4
 * only the cube after `D'` is open.
 */
/**
 * A 3x3 job whose sweep starts one below the pattern tables' bound: the bound's search is off
 * here (it would prove these optima outright), so the horizons below stay to be split.
 */
function cube(scramble: string, options: JobRequest['options'] = {}): JobRequest {
  return {
    game: 'cube',
    instance: { size: 3, scramble, metric: 'qtm' },
    options: { trustBound: false, ...options },
  };
}

beforeAll(() => {
  vi.stubEnv('SATFARM_BOUND_SEARCH_NODES', '0');
});
afterAll(() => {
  vi.unstubAllEnvs();
});

const HARD = "R U2 F' L D B2";
/** The cubes of horizon 6 of `HARD` the bound leaves open (lower bound 5 at horizon 5). */
const OPEN = [1, 2, 4, 7, 8, 10];

function started(jobId: string, t: number, at = NOW): HorizonReport {
  return { kind: 'started', jobId, game: 'cube', t, worker: 'host-a:1', at, run: 1 };
}

/** A worker's report of cube `index` of horizon `t`. */
function cubeReport(
  jobId: string,
  t: number,
  index: number,
  result: 'sat' | 'unsat' | 'unknown',
  more: Parameters<typeof report>[3] = {},
): HorizonReport {
  return report(jobId, t, result, { game: 'cube', run: 1, cube: index, plan: undefined, ...more });
}

/** The cubes of `jobId` queued so far, as `[t, index, cube t, lower bound]`. */
function queuedCubes(dispatch: ReturnType<typeof farm>['dispatch'], jobId: string) {
  return dispatch.queued
    .filter((h) => h.payload.jobId === jobId && h.payload.cube !== undefined)
    .map(({ payload: p }) => [p.t, p.cube!.index, p.cube!.t, p.cube!.lowerBound]);
}

/** The horizon line of `t` in `jobId`'s resource. */
async function line(coordinator: SweepCoordinator, jobId: string, t: number) {
  return (await coordinator.resource(jobId))?.horizons.find((h) => h.t === t);
}

describe(`${SweepCoordinator.name}: splitting`, () => {
  it('splits a horizon unanswered after options.split: its open cubes queued, the others refuted by the bound', async () => {
    const { coordinator, dispatch, progress, advance } = farm();
    const { jobIds } = await coordinator.submit([cube(HARD, { split: 5, parallelism: 2 })]);
    const id = jobIds[0]!;
    expect(dispatch.queuedOf(id)).toEqual([5, 6]);
    // Started 5 s ago by the worker's clock: the patience is over, the split comes at once.
    advance(5000);
    await coordinator.handleReport(started(id, 6, NOW));
    await vi.waitFor(() => expect(queuedCubes(dispatch, id)).toHaveLength(OPEN.length));
    expect(queuedCubes(dispatch, id)).toEqual(OPEN.map((index) => [6, index, 5, 5]));
    const entry = dispatch.queued.find((h) => h.payload.cube?.index === 1)!;
    expect(entry.payload).toMatchObject({ jobId: id, game: 'cube', t: 6, solver: 'kissat' });
    // The cube's instance is the position one move in, as the game parsed it.
    expect(entry.payload.cube!.instance).toMatchObject({ size: 3, metric: 'qtm' });
    // The whole run goes on beside its cubes: nothing was stopped.
    expect(dispatch.stopped).toEqual([]);
    expect(await line(coordinator, id, 6)).toMatchObject({
      result: 'running',
      split: { depth: 1, cubes: 12, refuted: 6, bound: 6, unanswered: 0, afterMs: 5000 },
    });
    expect(progress.horizons.at(-1)).toMatchObject({
      t: 6,
      state: 'running',
      split: { cubes: 12, refuted: 6 },
    });
  });

  it('waits out the patience: a horizon that just started is not split yet', async () => {
    const { coordinator, dispatch } = farm();
    const { jobIds } = await coordinator.submit([cube(HARD, { split: 60, parallelism: 2 })]);
    await coordinator.handleReport(started(jobIds[0]!, 6));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(queuedCubes(dispatch, jobIds[0]!)).toEqual([]);
  });

  it('proves the horizon UNSAT once every cube is refuted, and counts the share refuted meanwhile', async () => {
    const { coordinator, dispatch, progress } = farm();
    const { jobIds } = await coordinator.submit([cube(HARD, { split: 0, parallelism: 2 })]);
    const id = jobIds[0]!;
    await coordinator.handleReport(started(id, 6));
    await vi.waitFor(() => expect(queuedCubes(dispatch, id)).toHaveLength(OPEN.length));
    for (const index of OPEN.slice(0, -1)) await coordinator.handleReport(cubeReport(id, 6, index, 'unsat'));
    // A repeated report counts once.
    await coordinator.handleReport(cubeReport(id, 6, OPEN[0]!, 'unsat'));
    expect(await line(coordinator, id, 6)).toMatchObject({ result: 'running', split: { refuted: 11 } });
    expect(
      progress.horizons.filter((e) => e.t === 6 && e.split !== undefined).map((e) => e.split!.refuted),
    ).toEqual([6, 7, 8, 9, 10, 11]);

    await coordinator.handleReport(cubeReport(id, 6, OPEN.at(-1)!, 'unsat'));
    expect(await line(coordinator, id, 6)).toMatchObject({
      result: 'unsat',
      split: { cubes: 12, refuted: 12, bound: 6, unanswered: 0 },
    });
    expect(progress.horizons.find((e) => e.t === 6 && e.state === 'unsat')).toMatchObject({
      split: { refuted: 12 },
    });
    expect((await coordinator.resource(id))?.bounds.lower).toBe(7);
    // The whole run stops (and horizon 5 below, dominated); no cube is left to stop.
    expect(new Set(dispatch.stoppedIds)).toEqual(new Set([`${id}.t6`, `${id}.t5`]));
    // The sweep goes on above it.
    expect(dispatch.queuedOf(id).filter((t) => t === 7 || t === 8).length).toBeGreaterThan(0);
  });

  it('proves a horizon UNSAT by the split alone when the bound refutes every cube', async () => {
    const { coordinator, dispatch } = farm();
    const { jobIds } = await coordinator.submit([cube('R U F D', { split: 0, parallelism: 2 })]);
    const id = jobIds[0]!;
    await coordinator.handleReport(started(id, 3));
    await vi.waitFor(async () => expect((await line(coordinator, id, 3))?.result).toBe('unsat'));
    expect(await line(coordinator, id, 3)).toMatchObject({ split: { cubes: 12, refuted: 12, bound: 12 } });
    expect(queuedCubes(dispatch, id)).toEqual([]);
    expect(new Set(dispatch.stoppedIds)).toEqual(new Set([`${id}.t3`]));
  });

  it("answers with a SAT cube's plan joined to its moves and verified, and stops the other cubes", async () => {
    const { coordinator, dispatch } = farm();
    const { jobIds } = await coordinator.submit([cube(HARD, { split: 0, parallelism: 4 })]);
    const id = jobIds[0]!;
    await coordinator.handleReport(started(id, 8));
    await vi.waitFor(() => expect(queuedCubes(dispatch, id)).toHaveLength(12));
    // Cube 10 is the position after B, where B D' L' F U2 R' (7 quarter turns) solves.
    await coordinator.handleReport(
      cubeReport(id, 8, 10, 'sat', {
        plan: { moves: ['B', "D'", "L'", 'F', 'U2', "R'"], metric: 'qtm' },
        planLength: 7,
      }),
    );
    const resource = await coordinator.resource(id);
    expect(resource).toMatchObject({
      horizon: 8,
      solution: { moves: ['B2', "D'", "L'", 'F', 'U2', "R'"], metric: 'qtm' },
      bounds: { upper: 8 },
    });
    expect(resource?.horizons.find((h) => h.t === 8)).toMatchObject({
      result: 'sat',
      split: { cubes: 12, refuted: 0, answeredBy: 10 },
    });
    const others = Array.from({ length: 12 }, (_, i) => i).filter((i) => i !== 10);
    expect(dispatch.stoppedIds).toEqual(
      expect.arrayContaining([`${id}.t8`, ...others.map((i) => `${id}.t8.c${i}`)]),
    );
  });

  it("fails the job when a cube's plan joined does not solve the instance", async () => {
    const { coordinator, dispatch } = farm();
    const { jobIds } = await coordinator.submit([cube(HARD, { split: 0, parallelism: 4 })]);
    const id = jobIds[0]!;
    await coordinator.handleReport(started(id, 8));
    await vi.waitFor(() => expect(queuedCubes(dispatch, id)).toHaveLength(12));
    await coordinator.handleReport(
      cubeReport(id, 8, 10, 'sat', { plan: { moves: ['B', 'D', 'L', 'F'], metric: 'qtm' }, planLength: 4 }),
    );
    const resource = await coordinator.resource(id);
    expect(resource?.status).toBe('failed');
    expect(resource?.error).toMatch(/horizon 8, cube 10/);
  });

  it('stops the open cubes with the horizon: when its whole run answers, and when the job is cancelled', async () => {
    const { coordinator, dispatch } = farm();
    const { jobIds } = await coordinator.submit([
      cube(HARD, { split: 0, parallelism: 2 }),
      cube(HARD, { split: 0, parallelism: 2 }),
    ]);
    const [a, b] = [jobIds[0]!, jobIds[1]!];
    for (const id of [a, b]) {
      await coordinator.handleReport(started(id, 6));
      await vi.waitFor(() => expect(queuedCubes(dispatch, id)).toHaveLength(OPEN.length));
      await coordinator.handleReport(cubeReport(id, 6, 1, 'unsat'));
    }
    const cubeIds = (id: string) => OPEN.filter((i) => i !== 1).map((i) => `${id}.t6.c${i}`);

    await coordinator.handleReport(report(a, 6, 'unsat', { game: 'cube', run: 1 }));
    expect(await line(coordinator, a, 6)).toMatchObject({ result: 'unsat', split: { refuted: 7 } });
    expect(dispatch.stoppedIds).toEqual(expect.arrayContaining(cubeIds(a)));
    // Cubes already refuted, or refuted by the bound, have nothing to stop.
    expect(dispatch.stoppedIds).not.toContain(`${a}.t6.c1`);
    expect(dispatch.stoppedIds).not.toContain(`${a}.t6.c0`);

    await coordinator.cancel(b);
    expect(dispatch.stopped.at(-1)).toMatchObject({ reason: 'job-cancelled' });
    expect(dispatch.stopped.at(-1)?.ids).toEqual(expect.arrayContaining([`${b}.t6`, ...cubeIds(b)]));
    expect(dispatch.removed.at(-1)).toEqual(expect.arrayContaining(cubeIds(b)));
  });

  it('ends the horizon unknown when a cube and the whole run both end without an answer', async () => {
    const { coordinator, dispatch } = farm();
    const { jobIds } = await coordinator.submit([cube(HARD, { split: 0, parallelism: 2 })]);
    const id = jobIds[0]!;
    await coordinator.handleReport(started(id, 6));
    await vi.waitFor(() => expect(queuedCubes(dispatch, id)).toHaveLength(OPEN.length));
    // The whole run's end leaves the cubes to decide; a cube lost is a cube without an answer.
    await coordinator.handleReport(
      report(id, 6, 'unknown', { game: 'cube', run: 1, reason: 'formula-limit' }),
    );
    expect(await line(coordinator, id, 6)).toMatchObject({ result: 'running' });
    await coordinator.horizonLost(`${id}.t6.c2`, 'its worker died');
    const ended = await line(coordinator, id, 6);
    expect(ended).toMatchObject({ result: 'unknown', split: { unanswered: 1, refuted: 6 } });
    expect(ended?.reason).toMatch(/^split-unknown/);
    expect(dispatch.stoppedIds).toEqual(expect.arrayContaining([`${id}.t6.c1`, `${id}.t6.c10`]));
    expect(dispatch.stoppedIds).not.toContain(`${id}.t6.c2`);
  });

  it('picks up after a restart: splits a horizon whose patience ran out meanwhile, and queues open cubes again', async () => {
    const store = new InMemoryJobStore();
    let now = NOW;
    const first = farm({ store, clock: () => now });
    const { jobIds } = await first.coordinator.submit([
      cube(HARD, { split: 30, parallelism: 2 }),
      cube(HARD, { split: 0, parallelism: 2 }),
    ]);
    const [late, split] = [jobIds[0]!, jobIds[1]!];
    await first.coordinator.handleReport(started(late, 6));
    await first.coordinator.handleReport(started(split, 6));
    await vi.waitFor(() => expect(queuedCubes(first.dispatch, split)).toHaveLength(OPEN.length));
    await first.coordinator.handleReport(cubeReport(split, 6, 1, 'unsat'));
    first.coordinator.close();

    now += 30_000;
    const second = farm({ store, clock: () => now });
    await second.coordinator.resume();
    await vi.waitFor(() => expect(queuedCubes(second.dispatch, late)).toHaveLength(OPEN.length));
    expect(queuedCubes(second.dispatch, split).map(([, index]) => index)).toEqual(
      OPEN.filter((i) => i !== 1),
    );
  });
});
