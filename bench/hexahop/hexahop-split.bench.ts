/*
 * Hex-a-Hop, one hard horizon split into cubes solved --parallel at a time.
 * By first moves (--depth K, default 2): every win within H moves plays some first K moves and then
 * wins within H - K from where they lead, so the level has no win within H when, for each distinct
 * state the first K moves reach (the simulator plays them; a state several move orders reach is
 * one cube, taken at the fewest moves that reach it, which leaves it the most), the formula of
 * horizon H - K from that state is UNSAT. A cube the --cap leaves unanswered is split one move
 * deeper, so the hard parts of the proof get the finer split. The states come from the game's own
 * split (`splitHexahop`), the one `solve --split-after` makes.
 * By positions (--at-step T): each cell the player may stand on after step T is a cube, the whole
 * formula of horizon H with that position as a unit clause (one the cap leaves unanswered stays so).
 * A SAT cube ends the run with a plan (a state cube's prefix and its own plan), replayed whole from
 * the level's start. What a split may buy over one solver run: the cores, and (by first moves) the
 * move orders that reach one state, which a solver on the whole formula refutes one by one.
 * Run: node dist/bench/hexahop/hexahop-split.bench.js --horizon H [--level NAME]
 *      [--depth K | --at-step T] [--parallel P] [--cap SECONDS] [--solver NAME] [--variant JSON]
 *      [--out NAME|PATH]
 *      A first SIGINT or SIGTERM stops the cubes in hand and writes what was proven.
 */
import { cpus } from 'node:os';

import { FormulaBuildStopped } from '@satfarm/cnf';
import { encodeWithin, type HorizonResult, runHorizon, solveEncoded } from '@satfarm/engine';
import {
  hexahopGame,
  hexahopLowerBound,
  hexahopPositionVariable,
  MAP_SIZE,
  type HexahopInstance,
  HexahopSimulator,
  type HexahopSolution,
  scoreOf,
  splitHexahop,
  verifyHexahop,
} from '@satfarm/games';
import { createSolver } from '@satfarm/solver';

import {
  abortOnSignals,
  benchArgs,
  integerOption,
  machineFields,
  positiveOption,
  resultsPath,
  oneLevel,
  solverOption,
  variantOption,
  writeResults,
} from './bench-options.js';

const { args, fail } = benchArgs('hexahop split bench', {
  level: { type: 'string', default: 'Forced Fire' },
  horizon: { type: 'string' },
  depth: { type: 'string' },
  'at-step': { type: 'string' },
  parallel: { type: 'string', default: String(Math.max(1, cpus().length)) },
  cap: { type: 'string', default: '1800' },
  solver: { type: 'string' },
  variant: { type: 'string' },
  out: { type: 'string', default: 'hexahop-split' },
});

const level = oneLevel(args.level, fail);
const horizon = integerOption(args.horizon ?? fail('horizon', 'is required'), 1, 'horizon', fail);
if (args.depth !== undefined && args['at-step'] !== undefined)
  fail('at-step', 'splits by positions, --depth by first moves: give one of them');
const depth = integerOption(args.depth ?? '2', 0, 'depth', fail);
if (depth >= horizon) fail('depth', `must be below the horizon ${horizon}, got ${depth}`);
const atStep = args['at-step'] === undefined ? undefined : integerOption(args['at-step'], 1, 'at-step', fail);
if (atStep !== undefined && atStep >= horizon)
  fail('at-step', `must be below the horizon ${horizon}, got ${atStep}`);
const parallel = integerOption(args.parallel, 1, 'parallel', fail);
const capSec = positiveOption(args.cap, 'cap', fail);
const solverName = solverOption(args.solver, hexahopGame.defaultSolver ?? 'kissat', fail);
const variant = variantOption(args.variant, fail);
const out = resultsPath(args.out);

/** A state the first moves reach, to be shown unwinnable within the moves left. */
interface StateCube {
  kind: 'state';
  /** One move order that reaches it. */
  prefix: string[];
  instance: HexahopInstance;
}

/** The player on one cell after step `step`, to be shown no part of a win within the horizon. */
interface PositionCube {
  kind: 'position';
  cell: [number, number];
  step: number;
}

type Cube = StateCube | PositionCube;

interface CubeRow {
  /** A state cube's moves in, and one move order that reaches it. */
  depth?: number;
  prefix?: string;
  /** A position cube's cell and step, `x,y@t`. */
  at?: string;
  /**
   * `unsat`, `bound` (the level's lower bound from there is above the moves left), `sat`, `split`
   * (unanswered within the cap, its children queued), `unanswered` (a position cube the cap left
   * so), `cancelled`.
   */
  result: string;
  seconds: number;
  clauses?: number;
  cpuSeconds?: number;
  peakMiB?: number;
}

const tenths = (x: number): number => Math.round(x * 10) / 10;

async function main(): Promise<void> {
  const solver = createSolver(solverName);
  const solverVersion = await solver.version();
  const interrupted = abortOnSignals();
  const stop = new AbortController();
  const stopped = AbortSignal.any([interrupted, stop.signal]);
  console.log(
    `hexahop split bench, ${level.name} at horizon ${horizon}, ${solverVersion}, ${atStep === undefined ? `depth ${depth}` : `positions after step ${atStep}`}, ${parallel} at a time, cap ${capSec} s per cube${variant === undefined ? '' : `, variant ${JSON.stringify(variant)}`}`,
  );

  // The shallowest depth each state was queued at: reached again deeper, it has fewer moves left,
  // so the earlier cube already covers it.
  const seen = new Map<string, number>();
  const queue: Cube[] = [];
  let plan: string[] | undefined;
  const rows: CubeRow[] = [];

  /**
   * Queues the cubes `depth` moves on from `from` (the level, or a cube's state): the library's
   * split (`splitHexahop`: breadth first, each state once at the fewest moves, a state where the
   * player holds an item a move deeper), less the states already queued at no more moves.
   */
  const split = (from: { prefix: string[]; instance: HexahopInstance }, depth: number): void => {
    const found = splitHexahop(from.instance, depth, horizon - from.prefix.length);
    if (found === undefined)
      throw new Error(`too many states to split ${from.prefix.join(' ') || 'the level'}`);
    if (found.plan !== undefined) {
      plan ??= [...from.prefix, ...found.plan.moves];
      return;
    }
    for (const cube of found.cubes) {
      const prefix = [...from.prefix, ...cube.prefix.moves];
      const key = new HexahopSimulator(cube.instance).key();
      const earlier = seen.get(key);
      if (earlier !== undefined && earlier <= prefix.length) continue;
      seen.set(key, prefix.length);
      queue.push({ kind: 'state', prefix, instance: cube.instance });
    }
  };
  const start = new HexahopSimulator(level);
  seen.set(start.key(), 0);
  if (atStep !== undefined) {
    // The cells with a position variable at that step, read off one build of the formula.
    const probe = hexahopGame.encode(level, horizon, variant === undefined ? undefined : { variant });
    for (let y = 0; y < MAP_SIZE; y++) {
      for (let x = 0; x < MAP_SIZE; x++) {
        if (hexahopPositionVariable(probe.formula, x, y, atStep) !== undefined)
          queue.push({ kind: 'position', cell: [x, y], step: atStep });
      }
    }
    console.log(`${queue.length} cubes: the cells the player may stand on after step ${atStep}`);
  } else {
    if (depth === 0) queue.push({ kind: 'state', prefix: [], instance: level });
    else split({ prefix: [], instance: level }, depth);
    console.log(`${queue.length} cubes at depth ${depth}`);
  }

  /** A position cube's horizon: the whole formula, with the position as a unit clause. */
  const solvePosition = async (cube: PositionCube): Promise<HorizonResult<HexahopSolution>> => {
    const t0 = performance.now();
    const limits = { deadline: t0 + capSec * 1000 };
    const encoded = encodeWithin(
      hexahopGame,
      level,
      horizon,
      variant === undefined ? undefined : { variant },
      limits,
    );
    if (encoded instanceof FormulaBuildStopped) {
      const stats = {
        vars: 0,
        clauses: 0,
        solver: solverVersion,
        solverMs: 0,
        encodeMs: performance.now() - t0,
      };
      return { result: 'unknown', reason: 'timeout', stats };
    }
    const [x, y] = cube.cell;
    encoded.formula.add([hexahopPositionVariable(encoded.formula, x, y, cube.step)!]);
    const options = { timeoutMs: capSec * 1000 - (performance.now() - t0), signal: stopped };
    return solveEncoded(hexahopGame, level, horizon, encoded, solver, options, performance.now() - t0);
  };

  const started = performance.now();
  const runCube = async (cube: Cube): Promise<void> => {
    const row: CubeRow =
      cube.kind === 'state'
        ? { depth: cube.prefix.length, prefix: cube.prefix.join(' '), result: 'bound', seconds: 0 }
        : { at: `${cube.cell.join(',')}@${cube.step}`, result: 'bound', seconds: 0 };
    const left = cube.kind === 'state' ? horizon - cube.prefix.length : horizon;
    if (cube.kind === 'state' && hexahopLowerBound(cube.instance) > left) {
      rows.push(row);
      return;
    }
    const t0 = performance.now();
    const result =
      cube.kind === 'state'
        ? await runHorizon(
            hexahopGame,
            cube.instance,
            { t: left, timeoutMs: capSec * 1000, ...(variant === undefined ? {} : { encoding: variant }) },
            solver,
            { signal: stopped },
          )
        : await solvePosition(cube);
    row.seconds = tenths((performance.now() - t0) / 1000);
    row.clauses = result.stats.clauses;
    if (result.stats.solverCpuMs !== undefined) row.cpuSeconds = tenths(result.stats.solverCpuMs / 1000);
    if (result.stats.solverPeakRssKiB !== undefined)
      row.peakMiB = Math.round(result.stats.solverPeakRssKiB / 1024);
    if (result.result === 'sat') {
      row.result = 'sat';
      plan ??= cube.kind === 'state' ? [...cube.prefix, ...result.plan.moves] : result.plan.moves;
      stop.abort(new Error('a plan was found'));
    } else if (result.result === 'unsat') {
      row.result = 'unsat';
    } else if (result.result === 'cancelled' || stopped.aborted) {
      row.result = 'cancelled';
    } else if (cube.kind === 'state' && left > 0) {
      row.result = 'split';
      split(cube, 1);
    } else {
      row.result = 'unanswered';
    }
    // Recorded once answered, so that a cube in flight in another slot is not counted done.
    rows.push(row);
    const done = rows.filter((r) => r.result !== 'split').length;
    const name = row.at ?? (row.prefix || '(start)');
    console.log(
      `${row.result} ${name} (${left} left) ${row.seconds}s${row.cpuSeconds === undefined ? '' : ` cpu=${row.cpuSeconds}s`}; ${done} done, ${queue.length} queued, ${tenths((performance.now() - started) / 1000)}s`,
    );
  };
  // A cube split by a slot is queued for every slot: a slot with an empty queue waits for the
  // others while any cube is running.
  let running = 0;
  const slot = async (): Promise<void> => {
    for (;;) {
      if (stopped.aborted || plan !== undefined) return;
      const cube = queue.shift();
      if (cube === undefined) {
        if (running === 0) return;
        await new Promise((r) => setTimeout(r, 200));
        continue;
      }
      running++;
      try {
        await runCube(cube);
      } finally {
        running--;
      }
    }
  };
  if (plan === undefined) await Promise.all(Array.from({ length: parallel }, slot));
  const wallSeconds = tenths((performance.now() - started) / 1000);

  if (plan !== undefined) {
    // The cube's plan was checked from its state; the whole is replayed from the level's start.
    const moves = plan as HexahopSolution['moves'];
    const check = verifyHexahop(level, { moves, score: scoreOf(level, moves) }, horizon);
    if (!check.ok)
      throw new Error(`the plan found for ${level.name} fails: ${check.reason}: ${plan.join(' ')}`);
  }
  const open =
    rows.filter((r) => r.result === 'cancelled' || r.result === 'unanswered').length + queue.length;
  const verdict =
    plan !== undefined
      ? `a plan of ${plan.length} moves`
      : open === 0
        ? `no win within ${horizon} moves: every cube UNSAT`
        : `open: ${open} cubes unanswered`;
  // Results by depth (state cubes) or step (position cubes).
  const byDepth = new Map<string, Record<string, number>>();
  for (const r of rows) {
    const group = r.depth === undefined ? `step ${atStep}` : `depth ${r.depth}`;
    const counts = byDepth.get(group) ?? {};
    counts[r.result] = (counts[r.result] ?? 0) + 1;
    byDepth.set(group, counts);
  }
  console.table([...byDepth].map(([cubes, counts]) => ({ cubes, ...counts })));
  const slowest = [...rows].sort((a, b) => b.seconds - a.seconds).slice(0, 10);
  console.table(slowest);
  const cpuSeconds = tenths(rows.reduce((s, r) => s + (r.cpuSeconds ?? 0), 0));
  const summary = {
    level: level.name,
    horizon,
    verdict,
    cubes: rows.length,
    unanswered: open,
    wallSeconds,
    cpuSeconds,
    peakMiB: Math.max(0, ...rows.map((r) => r.peakMiB ?? 0)),
    ...(plan === undefined ? {} : { plan: plan.join(' ') }),
  };
  console.log(JSON.stringify(summary));
  const lower = hexahopLowerBound(level);
  const proven = plan === undefined && open === 0;
  writeResults(out, {
    bench: 'hexahop-split',
    solver: solverVersion,
    ...machineFields(),
    level: level.name,
    horizon,
    ...(atStep === undefined ? { depth } : { atStep }),
    parallel,
    capSeconds: capSec,
    variant: variant ?? null,
    interrupted: interrupted.aborted,
    summary,
    cubes: rows,
    // As a level row (read by the levels table): a plan is an upper bound; all cubes UNSAT prove
    // the horizon, so the lower bound is the one above it.
    rows:
      plan !== undefined
        ? [
            {
              number: level.number,
              level: level.name,
              par: level.par,
              status: 'satisfiable',
              bounds: `${lower}..${plan.length}`,
              moves: plan.length,
              score: scoreOf(level, plan as HexahopSolution['moves']),
              plan: plan.join(' '),
            },
          ]
        : proven
          ? [
              {
                number: level.number,
                level: level.name,
                par: level.par,
                status: 'unknown',
                bounds: `${horizon + 1}..?`,
              },
            ]
          : [],
  });
}

await main();
