/*
 * Hex-a-Hop, one hard horizon split by the states its first moves reach. Every win within H moves
 * plays some first k moves and then wins within H - k from where they lead, so the level has no
 * win within H when, for each distinct state the first k moves reach (the simulator plays them,
 * states that several move orders reach are solved once), the formula of horizon H - k from that
 * state is UNSAT. These cubes are solved --parallel at a time; a cube the --cap leaves unanswered
 * is split one move deeper (its children queued, each state solved at the shallowest depth it was
 * reached, which leaves it the most moves), so the hard parts of the proof get the finer split.
 * A SAT cube ends the run with a plan: its prefix and its own plan, replayed whole from the
 * level's start. What this buys over one solver run is the cores, and the move orders that reach
 * one state (a solver on the whole formula refutes each of them again).
 * Run: node dist/bench/hexahop/hexahop-split.bench.js --horizon H [--level NAME] [--depth K]
 *      [--parallel P] [--cap SECONDS] [--solver NAME] [--variant JSON] [--out NAME|PATH]
 *      A first SIGINT or SIGTERM stops the cubes in hand and writes what was proven.
 */
import { cpus } from 'node:os';

import { solveHorizon } from '@satfarm/engine';
import {
  DIRECTION_NAMES,
  HEXAHOP_MOVE_NAMES,
  hexahopGame,
  hexahopLowerBound,
  type HexahopInstance,
  HexahopSimulator,
  type HexahopSolution,
  scoreOf,
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
  depth: { type: 'string', default: '2' },
  parallel: { type: 'string', default: String(Math.max(1, cpus().length)) },
  cap: { type: 'string', default: '1800' },
  solver: { type: 'string' },
  variant: { type: 'string' },
  out: { type: 'string', default: 'hexahop-split' },
});

const level = oneLevel(args.level, fail);
const horizon = integerOption(args.horizon ?? fail('horizon', 'is required'), 1, 'horizon', fail);
const depth = integerOption(args.depth, 0, 'depth', fail);
if (depth >= horizon) fail('depth', `must be below the horizon ${horizon}, got ${depth}`);
const parallel = integerOption(args.parallel, 1, 'parallel', fail);
const capSec = positiveOption(args.cap, 'cap', fail);
const solverName = solverOption(args.solver, hexahopGame.defaultSolver ?? 'kissat', fail);
const variant = variantOption(args.variant, fail);
const out = resultsPath(args.out);

/** A state the first moves reach, to be shown unwinnable within the moves left. */
interface Cube {
  /** One move order that reaches it. */
  prefix: string[];
  sim: HexahopSimulator;
  instance: HexahopInstance;
}

interface CubeRow {
  depth: number;
  prefix: string;
  /** `unsat`, `bound` (the level's lower bound from there is above the moves left), `sat`, `split` (unanswered within the cap, its children queued), `cancelled`. */
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
    `hexahop split bench, ${level.name} at horizon ${horizon}, ${solverVersion}, depth ${depth}, ${parallel} at a time, cap ${capSec} s per cube${variant === undefined ? '' : `, variant ${JSON.stringify(variant)}`}`,
  );

  // The shallowest depth each state was queued at: reached again deeper, it has fewer moves left,
  // so the earlier cube already covers it.
  const seen = new Map<string, number>();
  const queue: Cube[] = [];
  let plan: string[] | undefined;
  const rows: CubeRow[] = [];

  /**
   * Queues the cubes `toDepth` moves in from `roots`, breadth first, so that each state is taken at
   * the shallowest depth it is reached; a state where the player holds an item (no instance starts
   * with one) is taken one move deeper.
   */
  const split = (roots: { sim: HexahopSimulator; prefix: string[] }[], toDepth: number): void => {
    for (let layer = roots; layer.length > 0;) {
      const next: typeof roots = [];
      for (const { sim, prefix } of layer) {
        // A jump only with a jump item held.
        const moves = sim.jumps > 0 ? HEXAHOP_MOVE_NAMES : DIRECTION_NAMES;
        for (const m of moves) {
          const child = sim.clone();
          if (!child.move(m).ok || child.dead) continue;
          const path = [...prefix, m];
          if (child.won) {
            plan ??= path;
            continue;
          }
          const key = child.key();
          const earlier = seen.get(key);
          if (earlier !== undefined && earlier <= path.length) continue;
          seen.set(key, path.length);
          const instance = path.length < toDepth ? undefined : child.toInstance(level);
          if (instance !== undefined) queue.push({ prefix: path, sim: child, instance });
          else if (path.length < horizon) next.push({ sim: child, prefix: path });
        }
      }
      layer = next;
    }
  };
  const start = new HexahopSimulator(level);
  seen.set(start.key(), 0);
  if (depth === 0) queue.push({ prefix: [], sim: start, instance: level });
  else split([{ sim: start, prefix: [] }], depth);
  console.log(`${queue.length} cubes at depth ${depth}`);

  const started = performance.now();
  const runCube = async (cube: Cube): Promise<void> => {
    const d = cube.prefix.length;
    const left = horizon - d;
    const row: CubeRow = { depth: d, prefix: cube.prefix.join(' '), result: 'bound', seconds: 0 };
    rows.push(row);
    if (hexahopLowerBound(cube.instance) > left) return;
    const t0 = performance.now();
    const result = await solveHorizon(hexahopGame, cube.instance, left, solver, {
      timeoutMs: capSec * 1000,
      signal: stopped,
      ...(variant === undefined ? {} : { encode: { variant } }),
    });
    row.seconds = tenths((performance.now() - t0) / 1000);
    row.clauses = result.stats.clauses;
    if (result.stats.solverCpuMs !== undefined) row.cpuSeconds = tenths(result.stats.solverCpuMs / 1000);
    if (result.stats.solverPeakRssKiB !== undefined)
      row.peakMiB = Math.round(result.stats.solverPeakRssKiB / 1024);
    if (result.result === 'sat') {
      row.result = 'sat';
      plan ??= [...cube.prefix, ...result.plan.moves];
      stop.abort(new Error('a plan was found'));
    } else if (result.result === 'unsat') {
      row.result = 'unsat';
    } else if (result.result === 'cancelled' || stopped.aborted) {
      row.result = 'cancelled';
    } else {
      row.result = 'split';
      split([{ sim: cube.sim, prefix: cube.prefix }], d + 1);
    }
    const done = rows.filter((r) => r.result !== 'split').length;
    console.log(
      `${row.result} ${row.prefix || '(start)'} (${left} left) ${row.seconds}s${row.cpuSeconds === undefined ? '' : ` cpu=${row.cpuSeconds}s`}; ${done} done, ${queue.length} queued, ${tenths((performance.now() - started) / 1000)}s`,
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
    const verdict = verifyHexahop(level, { moves, score: scoreOf(level, moves) }, horizon);
    if (!verdict.ok)
      throw new Error(`the plan found for ${level.name} fails: ${verdict.reason}: ${plan.join(' ')}`);
  }
  const open = rows.filter((r) => r.result === 'cancelled').length + queue.length;
  const verdict =
    plan !== undefined
      ? `a plan of ${plan.length} moves`
      : open === 0
        ? `no win within ${horizon} moves: every cube UNSAT`
        : `open: ${open} cubes unanswered`;
  const byDepth = new Map<number, Record<string, number>>();
  for (const r of rows) {
    const counts = byDepth.get(r.depth) ?? {};
    counts[r.result] = (counts[r.result] ?? 0) + 1;
    byDepth.set(r.depth, counts);
  }
  console.table([...byDepth].sort(([a], [b]) => a - b).map(([d, counts]) => ({ depth: d, ...counts })));
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
    depth,
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
