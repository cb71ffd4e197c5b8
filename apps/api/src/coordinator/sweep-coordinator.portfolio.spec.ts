import { describe, expect, it } from 'vitest';

import { candidateConfigs, configLabel, MemoryPortfolioRecord } from '@satfarm/engine';
import type { HorizonReport } from '@satfarm/queue';

import { SweepCoordinator } from './sweep-coordinator.js';
import { farm, NOW, pigeons, report } from './testing/coordinator.fakes.js';

/** `[t, sibling, config]` of each queued entry of `jobId`, in queue order. */
function queued(
  dispatch: ReturnType<typeof farm>['dispatch'],
  jobId: string,
): Array<[number, number, string]> {
  return dispatch.queued
    .filter((h) => h.payload.jobId === jobId)
    .map(({ payload: p }) => [p.t, p.sibling ?? 0, `${p.solver}/${p.preset ?? 'default'}/${p.seed ?? '-'}`]);
}

function started(jobId: string, t: number, at: number, sibling?: number, config?: string): HorizonReport {
  return {
    kind: 'started',
    jobId,
    game: 'pigeons',
    t,
    worker: 'host-a:1',
    at,
    run: 1,
    ...(sibling === undefined ? {} : { sibling }),
    ...(config === undefined ? {} : { config }),
  };
}

describe(`${SweepCoordinator.name}: portfolio`, () => {
  it('queues each horizon alone, as ever, when neither the job nor the farm asks for a portfolio', async () => {
    const { coordinator, dispatch } = farm();
    const { jobIds } = await coordinator.submit([pigeons()]);
    expect(queued(dispatch, jobIds[0]!)).toEqual([
      [3, 0, 'kissat/default/-'],
      [4, 0, 'kissat/default/-'],
    ]);
  });

  it("queues each horizon with its siblings, the record's untried configurations first", async () => {
    const { coordinator, dispatch } = farm();
    const { jobIds } = await coordinator.submit([pigeons({ portfolio: 3 })]);
    expect(queued(dispatch, jobIds[0]!)).toEqual([
      [3, 0, 'kissat/default/0'],
      [3, 1, 'kissat/default/1'],
      [3, 2, 'kissat/default/2'],
      [4, 0, 'kissat/default/0'],
      [4, 1, 'kissat/default/1'],
      [4, 2, 'kissat/default/2'],
    ]);
  });

  it("follows the farm's default, which a job's portfolio: 'off' turns off", async () => {
    const { coordinator, dispatch } = farm({ settings: { portfolio: 2 } });
    const { jobIds } = await coordinator.submit([pigeons(), pigeons({ portfolio: 'off' })]);
    expect(queued(dispatch, jobIds[0]!).filter(([, sibling]) => sibling > 0)).toHaveLength(2);
    expect(queued(dispatch, jobIds[1]!).filter(([, sibling]) => sibling > 0)).toEqual([]);
  });

  it('ranks the siblings by the record of the game and the answer expected: a configuration that won races runs first', async () => {
    const record = new MemoryPortfolioRecord();
    // Every configuration ran once at an expected UNSAT; cadical/unsat/0 won, and won again.
    await record.add(
      'pigeons',
      'unsat',
      candidateConfigs().map((c) => ({
        config: configLabel(c),
        won: configLabel(c) === 'cadical/unsat/0',
        ms: 90,
      })),
    );
    await record.add('pigeons', 'unsat', [{ config: 'cadical/unsat/0', won: true, ms: 80 }]);
    const { coordinator, dispatch } = farm({ portfolioRecord: record });
    const { jobIds } = await coordinator.submit([pigeons({ portfolio: 2, parallelism: 1 })]);
    // Horizon 3 is at the lower bound (4 holes claimed, so 3 is expected UNSAT).
    expect(queued(dispatch, jobIds[0]!)).toEqual([
      [3, 0, 'kissat/default/0'],
      [3, 1, 'cadical/unsat/0'],
    ]);
  });

  it("takes a sibling's answer as the horizon's: the others stop, the line names who ran how long, the record learns", async () => {
    const record = new MemoryPortfolioRecord();
    const { coordinator, dispatch, progress, advance } = farm({ portfolioRecord: record });
    const { jobIds } = await coordinator.submit([pigeons({ portfolio: 3, parallelism: 1 })]);
    const id = jobIds[0]!;
    advance(2000);
    await coordinator.handleReport(started(id, 3, NOW, undefined, 'kissat/default/0'));
    await coordinator.handleReport(started(id, 3, NOW + 100, 1, 'kissat/default/1'));
    await coordinator.handleReport(started(id, 3, NOW + 200, 2, 'kissat/default/2'));
    await coordinator.handleReport(
      report(id, 3, 'unsat', {
        run: 1,
        sibling: 2,
        config: 'kissat/default/2',
        startedAt: NOW + 200,
        ms: 800,
      }),
    );

    // The horizon's own run and the other sibling are told to stop, at the answer's time.
    expect(dispatch.stopped[0]).toMatchObject({ reason: 'dominated', decidedAt: NOW + 1000 });
    expect(dispatch.stopped[0]?.ids).toEqual(expect.arrayContaining([`${id}.t3`, `${id}.t3.s1`]));
    // The dashboard hears who answered with the answer.
    const answered = progress.horizons.find((e) => e.t === 3 && e.state === 'unsat');
    expect(answered?.stats?.config).toBe('kissat/default/2');
    const line = (await coordinator.resource(id))?.horizons.find((h) => h.t === 3);
    expect(line).toMatchObject({ result: 'unsat', config: 'kissat/default/2' });
    expect(line?.raced).toEqual(
      expect.arrayContaining([
        { config: 'kissat/default/0', result: 'cancelled', ms: 1000 },
        { config: 'kissat/default/1', result: 'cancelled', ms: 900 },
      ]),
    );
    const tallies = await record.tallies('pigeons', 'unsat');
    expect(tallies.get('kissat/default/2')).toEqual({ runs: 1, wins: 1, winMs: 800 });
    expect(tallies.get('kissat/default/0')).toEqual({ runs: 1, wins: 0, winMs: 0 });
    // The sweep went on as on any answer: horizon 4 is queued, with its siblings.
    expect(queued(dispatch, id).filter(([t]) => t === 4)).toHaveLength(3);
  });

  it("ignores a sibling's failure, loss or lack of an answer: the horizon's own run decides", async () => {
    const { coordinator, dispatch, advance } = farm();
    const { jobIds } = await coordinator.submit([pigeons({ portfolio: 3, parallelism: 1 })]);
    const id = jobIds[0]!;
    await coordinator.handleReport(started(id, 3, NOW, 1, 'kissat/default/1'));
    advance(120);
    await coordinator.handleReport({
      kind: 'failed',
      jobId: id,
      game: 'pigeons',
      t: 3,
      worker: 'host-a:1',
      run: 1,
      sibling: 1,
      config: 'kissat/default/1',
      error: 'kissat: killed',
    });
    await coordinator.handleReport(
      report(id, 3, 'unknown', { run: 1, sibling: 2, config: 'kissat/default/2', reason: 'gave-way' }),
    );
    await coordinator.horizonLost(`${id}.t3.s2`, 'its worker died');
    expect(dispatch.stopped).toEqual([]);
    expect((await coordinator.resource(id))?.horizons).toEqual([
      expect.objectContaining({ t: 3, result: 'queued' }),
    ]);

    await coordinator.handleReport(report(id, 3, 'unsat', { run: 1, config: 'kissat/default/0', ms: 500 }));
    const line = (await coordinator.resource(id))?.horizons.find((h) => h.t === 3);
    expect(line).toMatchObject({ result: 'unsat', config: 'kissat/default/0' });
    // The failed sibling ran until it failed; the other one until it gave its slot back.
    expect(line?.raced).toEqual([
      { config: 'kissat/default/1', result: 'unknown', ms: 120 },
      { config: 'kissat/default/2', result: 'unknown', ms: 40, gaveWay: true },
    ]);
  });

  it("fails the job when a sibling's answer contradicts the horizon's", async () => {
    const { coordinator } = farm();
    const { jobIds } = await coordinator.submit([pigeons({ portfolio: 2, parallelism: 1 })]);
    const id = jobIds[0]!;
    await coordinator.handleReport(report(id, 3, 'unsat', { run: 1, config: 'kissat/default/0' }));
    await coordinator.handleReport(report(id, 3, 'sat', { run: 1, sibling: 1, config: 'kissat/default/1' }));
    expect(await coordinator.resource(id)).toMatchObject({ status: 'failed' });
  });
});
