/*
 * Hex-a-Hop plan suffixes: for one level and a plan that wins it, each suffix of the plan, the
 * shortest first, is solved again from the state the plan's first k moves reach (a horizon sweep
 * from the suffix's length, which asks the horizon one below it first). UNSAT there proves the
 * suffix the fewest moves that win after those k moves; SAT gives a shorter suffix, spliced into
 * the plan (replayed whole in the simulator) before k goes on down. It stops at the first suffix
 * left unanswered by the cap (the longer ones are harder still), or at k = --from.
 * A shorter plan lowers the level's upper bound; a run of proven suffixes says how far back any
 * shorter plan must part from this one (a shorter plan keeps at most k - 1 of its first moves).
 * Run: node dist/bench/hexahop/hexahop-suffix.bench.js [--level NAME] [--plan 'N NE ...']
 *      [--cap SECONDS] [--from K] [--solver NAME] [--variant JSON] [--out NAME|PATH]
 *      The plan defaults to the shortest the beam bench recorded (bench/results/hexahop-beam*.json).
 */
import { solveParsed } from '@satfarm/engine';
import {
  hexahopDefaultMaxHorizon,
  hexahopGame,
  hexahopLowerBound,
  HexahopSimulator,
  type HexahopSolution,
  HEXAHOP_MOVE_NAMES,
  scoreOf,
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
import { horizonText } from './horizon-text.js';
import { shortestBeamPlans } from './level-results.js';

type HexahopMove = HexahopSolution['moves'][number];

const { args, fail } = benchArgs('hexahop suffix bench', {
  level: { type: 'string', default: 'Forced Fire' },
  plan: { type: 'string' },
  cap: { type: 'string', default: '600' },
  from: { type: 'string', default: '0' },
  solver: { type: 'string' },
  variant: { type: 'string' },
  out: { type: 'string', default: 'hexahop-suffix' },
});

const capSec = positiveOption(args.cap, 'cap', fail);
const from = integerOption(args.from, 0, 'from', fail);
const solverName = solverOption(args.solver, hexahopGame.defaultSolver ?? 'kissat', fail);
const variant = variantOption(args.variant, fail);
const out = resultsPath(args.out);
const level = oneLevel(args.level, fail);
const givenText =
  args.plan ??
  shortestBeamPlans((reason) => fail('plan', reason)).get(level.name) ??
  fail('plan', `none given, and the beam bench recorded none for ${level.name}`);

/** The plan's moves, refused (exit 2) unless each is a move name and the whole wins the level. */
function winningPlan(text: string): HexahopMove[] {
  const moves = text.trim().split(/\s+/);
  const names: readonly string[] = HEXAHOP_MOVE_NAMES;
  const unknown = moves.find((m) => !names.includes(m));
  if (unknown !== undefined) fail('plan', `'${unknown}' is not one of ${names.join(' ')}`);
  if (!wins(moves)) fail('plan', `does not win ${level.name} in the simulator`);
  return moves as HexahopMove[];
}

/** Whether `moves` win the level, each one played and the player alive at the end. */
function wins(moves: readonly string[]): boolean {
  const sim = new HexahopSimulator(level);
  return moves.every((m) => sim.move(m).ok) && sim.won;
}

interface SuffixRow {
  /** Moves of the plan kept as they are. */
  k: number;
  /** The suffix's length when it was solved. */
  rest: number;
  /** `optimal`: the fewest moves from there proven (UNSAT one below); else the sweep's status. */
  status: string;
  /** The fewest moves from there, when proven. */
  fewest?: number;
  bounds: string;
  /** Each horizon tried (`horizonText`). */
  horizons: string;
  clauses: number;
  seconds: number;
}

async function main(): Promise<void> {
  const solver = await createSolver(solverName).version();
  const given = winningPlan(givenText);
  let plan = given;
  console.log(
    `hexahop suffix bench, ${level.name}, ${solver}, cap ${capSec} s per suffix, plan of ${given.length} moves, down to k = ${from}`,
  );
  const rows: SuffixRow[] = [];
  let stopped = `k = ${from} reached`;
  const interrupted = abortOnSignals();
  for (let k = plan.length - 1; k >= from; k--) {
    const sim = new HexahopSimulator(level);
    for (const m of plan.slice(0, k)) sim.move(m);
    const here = sim.toInstance(level);
    if (here === undefined) {
      stopped = `after ${k} moves the player holds an item, which no instance starts with`;
      break;
    }
    const rest = plan.slice(k);
    const report = await solveParsed(hexahopGame, here, {
      ...(variant === undefined ? {} : { encoding: variant }),
      solver: solverName,
      parallelism: 1,
      timeoutSec: capSec,
      policy: 'consecutive',
      quickPlan: false,
      plan: rest,
      minHorizon: rest.length,
      signal: interrupted,
      // The level's default cap on horizons may be under a long suffix (a plan with detours).
      maxHorizon: Math.max(rest.length, hexahopDefaultMaxHorizon(here)),
    });
    const found = (report.solution as HexahopSolution | undefined)?.moves;
    const row: SuffixRow = {
      k,
      rest: rest.length,
      status: report.status,
      ...(report.status === 'optimal' && found !== undefined ? { fewest: found.length } : {}),
      bounds: `${report.bounds.lower}..${report.bounds.upper ?? '?'}`,
      horizons: report.horizons.map(horizonText).join(' '),
      clauses: report.stats.clauses,
      seconds: Math.round(report.stats.wallMs / 100) / 10,
    };
    rows.push(row);
    console.log(`k=${k} rest=${row.rest} ${row.status} bounds=${row.bounds} ${row.seconds}s`);
    if (found !== undefined && found.length < rest.length) {
      const spliced = [...plan.slice(0, k), ...found];
      // The engine replayed the suffix from the state; the whole is replayed from the start too.
      if (!wins(spliced))
        throw new Error(`the spliced plan does not win ${level.name}: ${spliced.join(' ')}`);
      plan = spliced;
      console.log(`shorter plan: ${plan.length} moves: ${plan.join(' ')}`);
    }
    if (report.status !== 'optimal') {
      stopped = `suffix after ${k} moves unanswered ${interrupted.aborted ? 'when a signal cut the run short' : 'within the cap'}`;
      break;
    }
  }
  console.table(rows.map(({ horizons: _h, ...shown }) => shown));
  const proven = rows.filter((r) => r.status === 'optimal');
  const provenFrom = proven.length === 0 ? undefined : Math.min(...proven.map((r) => r.k));
  const summary = {
    level: level.name,
    givenMoves: given.length,
    bestMoves: plan.length,
    provenFrom: provenFrom ?? null,
    stopped,
  };
  console.log(JSON.stringify(summary));
  const lower = hexahopLowerBound(level);
  writeResults(out, {
    bench: 'hexahop-suffix',
    solver,
    ...machineFields(),
    capSeconds: capSec,
    from,
    variant: variant ?? null,
    // Cut short by a signal: the last suffix holds what its solve proved by then.
    interrupted: interrupted.aborted,
    given: given.join(' '),
    summary,
    suffixes: rows,
    // The best plan as a level row (read by the levels table): an upper bound, with only the
    // level's static lower bound beside it, since a suffix's proof holds after its prefix alone.
    rows: [
      {
        number: level.number,
        level: level.name,
        par: level.par,
        status: 'satisfiable',
        bounds: `${lower}..${plan.length}`,
        moves: plan.length,
        score: scoreOf(level, plan),
        plan: plan.join(' '),
      },
    ],
  });
}

await main();
