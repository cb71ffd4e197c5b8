import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import {
  candidateConfigs,
  configLabel,
  defaultPortfolioRecordPath,
  FilePortfolioRecord,
  MemoryPortfolioRecord,
  orderConfigs,
  raceConfigs,
  type SolverConfig,
} from './portfolio.js';
import { SlotPool } from './slot-pool.js';

const kissat = (preset: SolverConfig['preset'], seed = 0): SolverConfig => ({
  solver: 'kissat',
  preset,
  seed,
});

describe('candidateConfigs', () => {
  it('offers every preset of kissat with each seed, and cadical, each once', () => {
    const labels = candidateConfigs(2).map(configLabel);
    expect(labels).toEqual([
      'kissat/default/0',
      'kissat/default/1',
      'kissat/sat/0',
      'kissat/sat/1',
      'kissat/unsat/0',
      'kissat/unsat/1',
      'cadical/default/0',
      'cadical/sat/0',
      'cadical/unsat/0',
    ]);
  });
});

describe('orderConfigs', () => {
  const candidates = [kissat('default'), kissat('sat'), kissat('sat', 1), kissat('unsat')];

  it('puts the horizon’s own configuration first, then the untried ones in the candidates’ order', () => {
    const order = orderConfigs(candidates, new Map(), kissat('unsat')).map(configLabel);
    expect(order).toEqual(['kissat/unsat/0', 'kissat/default/0', 'kissat/sat/0', 'kissat/sat/1']);
  });

  it('brings forward the configuration that has won the recorded races', async () => {
    const record = new MemoryPortfolioRecord();
    for (let i = 0; i < 6; i++) {
      await record.add('cube', 'sat', [
        { config: 'kissat/default/0', won: false, ms: 9000 },
        { config: 'kissat/sat/0', won: false, ms: 9000 },
        { config: 'kissat/sat/1', won: true, ms: 800 },
        { config: 'kissat/unsat/0', won: false, ms: 9000 },
      ]);
    }
    const order = orderConfigs(candidates, await record.tallies('cube', 'sat'), kissat('default'));
    expect(order.map(configLabel).slice(0, 2)).toEqual(['kissat/default/0', 'kissat/sat/1']);
    // Kept apart by game and by expected answer.
    const unsat = orderConfigs(candidates, await record.tallies('cube', 'unsat'), kissat('default'));
    expect(unsat.map(configLabel)[1]).toBe('kissat/sat/0');
  });

  it('still gives an untried configuration its turn before one that keeps losing', async () => {
    const record = new MemoryPortfolioRecord();
    await record.add('snake', 'unsat', [
      { config: 'kissat/default/0', won: true, ms: 100 },
      { config: 'kissat/sat/0', won: false, ms: 100 },
    ]);
    const order = orderConfigs(candidates, await record.tallies('snake', 'unsat'), kissat('default'));
    expect(order.map(configLabel).indexOf('kissat/sat/1')).toBeLessThan(
      order.map(configLabel).indexOf('kissat/sat/0'),
    );
  });
});

describe('raceConfigs', () => {
  type Result = 'sat' | 'unsat' | 'unknown' | 'cancelled';
  const decisive = (r: Result): boolean => r === 'sat' || r === 'unsat';

  /** A run that answers `result` after `ms`, or `cancelled` as soon as its signal aborts. */
  const after =
    (plan: Array<[Result, number]>) =>
    (_config: SolverConfig, signal: AbortSignal, index: number): Promise<Result> =>
      new Promise((resolve) => {
        const [result, ms] = plan[index]!;
        const timer = setTimeout(() => resolve(result), ms);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve('cancelled');
        });
      });

  it('takes the first decisive answer and stops the others', async () => {
    const configs = [kissat('default'), kissat('sat'), kissat('unsat')];
    const { winner, runs } = await raceConfigs(
      configs,
      after([
        ['unsat', 2000],
        ['sat', 10],
        ['unsat', 2000],
      ]),
      decisive,
    );
    expect(winner.config).toEqual(kissat('sat'));
    expect(winner.result).toBe('sat');
    expect(runs.map((r) => r.result)).toEqual(['cancelled', 'sat', 'cancelled']);
    expect(Math.max(...runs.map((r) => r.ms))).toBeLessThan(1000);
  });

  it('keeps waiting past an undecided run, and without any decisive one gives the first configuration’s', async () => {
    const configs = [kissat('default'), kissat('sat')];
    const decided = await raceConfigs(
      configs,
      after([
        ['unsat', 60],
        ['unknown', 5],
      ]),
      decisive,
    );
    expect(decided.winner.result).toBe('unsat');
    const undecided = await raceConfigs(
      configs,
      after([
        ['unknown', 20],
        ['unknown', 5],
      ]),
      decisive,
    );
    expect(undecided.winner.config).toEqual(kissat('default'));
  });

  it('stops every run when the caller aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort('cancelled'), 10);
    const { runs } = await raceConfigs(
      [kissat('default'), kissat('sat')],
      after([
        ['unsat', 5000],
        ['sat', 5000],
      ]),
      decisive,
      controller.signal,
    );
    expect(runs.map((r) => r.result)).toEqual(['cancelled', 'cancelled']);
  });

  it('passes a failure on once every other run has stopped', async () => {
    let othersEnded = false;
    const race = raceConfigs(
      [kissat('default'), kissat('sat')],
      (_config, signal, index) =>
        index === 0
          ? Promise.reject(new Error('solver missing'))
          : new Promise<Result>((resolve) =>
              signal.addEventListener('abort', () => {
                othersEnded = true;
                resolve('cancelled');
              }),
            ),
      decisive,
    );
    await expect(race).rejects.toThrow('solver missing');
    expect(othersEnded).toBe(true);
  });
});

describe('SlotPool.acquireSpare', () => {
  it('lends only free slots, and none while a horizon waits', async () => {
    const pool = new SlotPool(2);
    const first = await pool.acquire();
    const spare = pool.acquireSpare(() => undefined);
    expect(spare).toBeDefined();
    expect(pool.acquireSpare(() => undefined)).toBeUndefined();
    spare!();
    first();
    expect(pool.busy).toBe(0);
  });

  it('asks the newest lent slot to give way when a horizon wants one, and hands it over on release', async () => {
    const pool = new SlotPool(2);
    await pool.acquire();
    const asked: string[] = [];
    const lent: { release?: () => void } = {};
    lent.release = pool.acquireSpare(() => {
      asked.push('spare');
      queueMicrotask(() => lent.release?.());
    });
    const horizon = await pool.acquire();
    expect(asked).toEqual(['spare']);
    expect(pool.busy).toBe(2);
    horizon();
    // Released twice (its run's end after the give-way): counted once.
    lent.release!();
    expect(pool.busy).toBe(1);
  });
});

describe('FilePortfolioRecord', () => {
  it('keeps the races of earlier solves, by game and expected answer, and starts afresh from a file it cannot read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'satfarm-record-'));
    try {
      const path = join(dir, 'nested', 'record.json');
      await new FilePortfolioRecord(path).add('cube', 'sat', [
        { config: 'kissat/sat/1', won: true, ms: 700 },
        { config: 'kissat/default/0', won: false, ms: 700 },
      ]);
      await new FilePortfolioRecord(path).add('cube', 'sat', [
        { config: 'kissat/sat/1', won: true, ms: 300 },
      ]);
      const later = new FilePortfolioRecord(path);
      expect(Object.fromEntries(await later.tallies('cube', 'sat'))).toEqual({
        'kissat/sat/1': { runs: 2, wins: 2, winMs: 1000 },
        'kissat/default/0': { runs: 1, wins: 0, winMs: 0 },
      });
      expect((await later.tallies('cube', 'unsat')).size).toBe(0);
      writeFileSync(path, 'not json');
      expect((await later.tallies('cube', 'sat')).size).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps every race of one process, when races end at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'satfarm-record-'));
    try {
      const record = new FilePortfolioRecord(join(dir, 'record.json'));
      await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          record.add('cube', 'sat', [{ config: `kissat/sat/${i % 3}`, won: true, ms: 10 }]),
        ),
      );
      expect(Object.fromEntries(await record.tallies('cube', 'sat'))).toEqual({
        'kissat/sat/0': { runs: 4, wins: 4, winMs: 40 },
        'kissat/sat/1': { runs: 4, wins: 4, winMs: 40 },
        'kissat/sat/2': { runs: 4, wins: 4, winMs: 40 },
      });
      expect(readdirSync(dir)).toEqual(['record.json']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lives where SATFARM_PORTFOLIO_RECORD says, else in the user’s cache directory', () => {
    expect(defaultPortfolioRecordPath({ SATFARM_PORTFOLIO_RECORD: '/x/r.json' })).toBe('/x/r.json');
    expect(defaultPortfolioRecordPath({ XDG_CACHE_HOME: '/c' })).toBe('/c/satfarm/portfolio-record.json');
  });
});
