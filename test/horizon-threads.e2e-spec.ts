import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import type * as EngineSource from '@satfarm/engine';
import { specDir, writeFarmGamesModule } from './support/farm-processes.js';
import { descendants, isAlive, solversUnder } from './support/process-table.js';
import { repoRoot } from './support/run-cli.js';
import { waitUntil } from './support/waits.js';

/**
 * `HorizonThreadPool` from the build (its threads run the built file), with the real kissat: a
 * horizon runs off the caller's event loop, a cancel stops its build or kills its solver, the
 * error classes callers act on survive the thread, and a dying thread fails only its horizon.
 */
type Engine = typeof EngineSource;
const spec = specDir();
let engine: Engine;
let games: string;
const pools: EngineSource.HorizonThreadPool[] = [];

const built = (path: string): string => pathToFileURL(join(repoRoot, 'dist', path)).href;

beforeAll(async () => {
  engine = (await import(built('libs/engine/src/index.js'))) as Engine;
  const farmGames = writeFarmGamesModule(spec.dir);
  games = join(spec.dir, 'thread-games.mjs');
  // The farm's games, plus one whose encoding ends its thread and one whose simulator rejects every plan.
  writeFileSync(
    games,
    `import { lookup as farmGames } from ${JSON.stringify(pathToFileURL(farmGames).href)};
const cnf = farmGames('cnf');
const exits = { ...cnf, id: 'thread-exit', encode: () => process.exit(3) };
const wrong = { ...cnf, id: 'wrong', verify: () => ({ ok: false, reason: 'rejects every plan' }) };
export const lookup = (name, field) =>
  name === 'thread-exit' ? exits : name === 'wrong' ? wrong : farmGames(name, field);
`,
  );
});

afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
  expect(solversUnder(process.pid)).toEqual([]);
});

afterAll(() => spec.remove());

async function pool(size = 1): Promise<EngineSource.HorizonThreadPool> {
  const p = new engine.HorizonThreadPool({ size, gamesModule: games });
  pools.push(p);
  await p.start();
  return p;
}

const pigeons = (n: number, t: number, key = `pigeons-${n}`): EngineSource.HorizonTask => ({
  game: 'pigeons',
  instance: { pigeons: n },
  instanceKey: key,
  solver: 'kissat',
  run: { t },
});

/** A 100x100 Snake at horizon 197: about 3 million clauses, seconds of building. */
const bigSnake: EngineSource.HorizonTask = {
  game: 'snake',
  instance: { width: 100, height: 100, length: 3, start: [0, 0], apples: [[99, 99]] },
  instanceKey: 'big-snake',
  solver: 'kissat',
  run: { t: 197 },
};

/** The longest gap between the ticks of a 10 ms timer on this thread while `work` runs. */
async function longestStall<T>(work: Promise<T>): Promise<{ value: T; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 10);
  try {
    return { value: await work, stallMs };
  } finally {
    clearInterval(timer);
  }
}

describe('HorizonThreadPool', () => {
  it('answers as the in-process path does: a verified plan at the optimum, UNSAT below it', async () => {
    const threads = await pool(2);
    const [sat, unsat] = await Promise.all([threads.run(pigeons(5, 5)), threads.run(pigeons(5, 4))]);
    expect(sat).toMatchObject({ result: 'sat', planLength: 5 });
    expect(new Set((sat as { plan: { holes: number[] } }).plan.holes).size).toBe(5);
    expect(sat).not.toHaveProperty('model');
    expect(unsat.result).toBe('unsat');
    expect(unsat.stats.clauses).toBeGreaterThan(0);
    expect(unsat.stats.solver).toMatch(/^kissat/);
  });

  it('proves a single solve unique, or shows a second solution', async () => {
    const threads = await pool();
    const cnf = (instance: string, key: string): EngineSource.HorizonTask => ({
      game: 'cnf',
      instance,
      instanceKey: key,
      solver: 'kissat',
      run: { t: 0, unique: true },
    });
    expect(await threads.run(cnf('p cnf 2 2\n1 0\n-1 -2 0\n', 'one'))).toMatchObject({
      result: 'sat',
      unique: true,
      plan: { model: [1, -2] },
    });
    const two = await threads.run(cnf('p cnf 2 1\n1 2 0\n', 'two'));
    expect(two.result === 'sat' && two.unique).toBe(false);
    expect(two.result === 'sat' && two.secondSolution).not.toEqual(two.result === 'sat' && two.plan);
  });

  it("builds a large formula without holding the caller's event loop, and stops the build at a cancel", async () => {
    const threads = await pool();
    const controller = new AbortController();
    let abortedAt = 0;
    setTimeout(() => {
      abortedAt = performance.now();
      controller.abort('cancelled');
    }, 1500);
    const { value, stallMs } = await longestStall(threads.run(bigSnake, controller.signal));
    const endedAfter = performance.now() - abortedAt;
    expect(value).toMatchObject({ result: 'cancelled', stats: { vars: 0, clauses: 0, unbuilt: true } });
    // The build ran for seconds on its thread; this one's timer never waited for it.
    expect(stallMs).toBeLessThan(250);
    expect(endedAfter).toBeLessThan(1000);
  });

  it("stops a build at the run's timeout, where no timer of its thread could, and runs no solver", async () => {
    const threads = await pool();
    const started = performance.now();
    const result = await threads.run({ ...bigSnake, run: { t: 197, timeoutMs: 300 } });
    expect(result).toMatchObject({ result: 'unknown', reason: 'timeout', stats: { vars: 0, unbuilt: true } });
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it('kills the solver at a cancel, and the thread takes the next horizon', async () => {
    const threads = await pool();
    const controller = new AbortController();
    // PHP(13, 12): minutes of kissat.
    const hard = threads.run(pigeons(13, 12), controller.signal);
    await waitForSolver();
    controller.abort('cancelled');
    expect((await hard).result).toBe('cancelled');
    expect(solversUnder(process.pid)).toEqual([]);
    expect((await threads.run(pigeons(4, 4))).result).toBe('sat');
  });

  it('keeps the class of a wrong answer and of bad input, which callers do not retry', async () => {
    const threads = await pool();
    const wrong = threads.run({
      game: 'wrong',
      instance: 'p cnf 1 1\n1 0\n',
      instanceKey: 'w',
      solver: 'kissat',
      run: { t: 0 },
    });
    await expect(wrong).rejects.toBeInstanceOf(engine.VerificationError);
    const input = threads.run({
      game: 'snake',
      instance: { width: -1 },
      instanceKey: 'bad',
      solver: 'kissat',
      run: { t: 3 },
    });
    await expect(input).rejects.toMatchObject({ name: 'InputError' });
  });

  it('fails only the horizon of a thread that dies, and runs the next one on its replacement', async () => {
    const threads = await pool(2);
    const controller = new AbortController();
    const busy = threads.run(pigeons(13, 12), controller.signal).then((r) => r.result);
    const solver = await waitForSolver();
    const dying = threads.run({
      game: 'thread-exit',
      instance: 'p cnf 1 1\n1 0\n',
      instanceKey: 'x',
      solver: 'kissat',
      run: { t: 0 },
    });
    await expect(dying).rejects.toThrow(/the horizon thread stopped \(code 3\)/);
    // The other slot's solver never noticed.
    expect(isAlive(solver)).toBe(true);
    expect((await threads.run(pigeons(4, 3))).result).toBe('unsat');
    controller.abort('cancelled');
    expect(await busy).toBe('cancelled');
  });

  it('leaves no solver behind when closed with horizons running', async () => {
    const threads = await pool(2);
    const runs = [threads.run(pigeons(13, 12, 'a')), threads.run(pigeons(13, 12, 'b'))].map((run) =>
      run.then(
        () => 'answered',
        (err: Error) => err.message,
      ),
    );
    await waitForSolver(2);
    const spawned = descendants(process.pid).map((row) => row.pid);
    await threads.close();
    expect(await Promise.all(runs)).toEqual([
      'the horizon threads were closed',
      'the horizon threads were closed',
    ]);
    await expect.poll(() => spawned.filter(isAlive), { timeout: 5000 }).toEqual([]);
  });
});

/** The pid of a kissat under this process, once `count` of them run, from that one reading. */
function waitForSolver(count = 1): Promise<number> {
  return waitUntil(
    () => {
      const solvers = solversUnder(process.pid);
      return solvers.length >= count && solvers[0];
    },
    { what: `${count} kissat under this process`, timeoutMs: 20_000 },
  );
}
