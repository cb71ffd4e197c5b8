/*
 * Hex-a-Hop benchmark: every level of the installed levels.dat, solved by a full horizon sweep
 * (the game's default solver unless --solver names another; the game's default policy from the lower bound unless
 * --policy names another) under a
 * per-level time cap. Unsupported levels are listed with the tile types that keep them out. Every
 * plan is replayed in the simulator by the engine before it is counted.
 * Run: node dist/bench/hexahop/hexahop.bench.js [--cap SECONDS] [--parallel N] [--only A,B]
 *      [--solver kissat|cadical|minisat] [--policy leap] [--patience SECONDS] [--presets on|off] [--quick-plan on|off]
 *      [--plans none|beam] [--variant '{"deadlines":false}'] [--min-horizon N] [--out NAME|PATH]. Writes
 *      bench/results/NAME.json (hexahop.json by default), or PATH when it has a slash or ends in .json.
 *      `--plans beam` starts each level's sweep from the shortest plan the beam bench recorded
 *      (bench/results/hexahop-beam*.json), as `solve --plan` does.
 */
import { solveParsed } from '@satfarm/engine';
import {
  hexahopGame,
  hexahopLowerBound,
  type HexahopSolution,
  instanceOfLevel,
  loadLevelCatalog,
} from '@satfarm/games';
import { createSolver } from '@satfarm/solver';

import {
  abortOnSignals,
  benchArgs,
  integerOption,
  machineFields,
  positiveOption,
  resultsPath,
  selectLevels,
  solverOption,
  variantOption,
  writeResults,
} from './bench-options.js';
import { horizonText } from './horizon-text.js';
import { shortestBeamPlans } from './level-results.js';

const { args, fail } = benchArgs('hexahop bench', {
  cap: { type: 'string', default: '60' },
  parallel: { type: 'string', default: '1' },
  solver: { type: 'string' },
  policy: { type: 'string' },
  patience: { type: 'string' },
  presets: { type: 'string' },
  'quick-plan': { type: 'string', default: 'on' },
  plans: { type: 'string', default: 'none' },
  variant: { type: 'string' },
  'min-horizon': { type: 'string' },
  only: { type: 'string' },
  out: { type: 'string', default: 'hexahop' },
});

const capSec = positiveOption(args.cap, 'cap', fail);
const parallelism = integerOption(args.parallel, 1, 'parallel', fail);
/** Where each level's sweep starts, e.g. a bound an earlier run proved (with --only); none by default. */
const minHorizon =
  args['min-horizon'] === undefined ? undefined : integerOption(args['min-horizon'], 1, 'min-horizon', fail);
/** The game's default solver unless --solver names another. */
const solverName = solverOption(args.solver, hexahopGame.defaultSolver ?? 'kissat', fail);
const policy = args.policy ?? hexahopGame.defaultPolicy ?? 'consecutive';
/** Seconds a patient probe (probe's and bracket's second slot) runs before it gives way; none by default. */
const patienceSec = args.patience === undefined ? undefined : positiveOption(args.patience, 'patience', fail);
/** A bare name goes to bench/results/NAME.json; a path (with a slash or ending in .json) is used as given. */
const out = resultsPath(args.out);
/** Solver presets by horizon (--unsat on the lowest open horizon, --sat above); default: the game's. */
if (args.presets !== undefined && args.presets !== 'on' && args.presets !== 'off') {
  fail('presets', `must be 'on' or 'off', got '${args.presets}'`);
}
const presets = args.presets === undefined ? (hexahopGame.solverPresets ?? false) : args.presets === 'on';
/** The game's quick plan (a beam search) as the sweep's first upper bound. */
if (args['quick-plan'] !== 'on' && args['quick-plan'] !== 'off') {
  fail('quick-plan', `must be 'on' or 'off', got '${args['quick-plan']}'`);
}
const quickPlan = args['quick-plan'] === 'on';
if (args.plans !== 'none' && args.plans !== 'beam')
  fail('plans', `must be 'none' or 'beam', got '${args.plans}'`);
/** Plans to start from, by level: the beam bench's shortest (`--plans beam`), or none. */
const givenPlans =
  args.plans === 'beam' ? shortestBeamPlans((reason) => fail('plans', reason)) : new Map<string, string>();
const variant = variantOption(args.variant, fail);

interface Row {
  number: number;
  level: string;
  file: string;
  status: string;
  moves?: number;
  score?: number;
  par: number;
  lower?: number;
  bounds?: string;
  /** Each horizon tried (`horizonText`): `t:result:seconds`, then calls, solver CPU and peak where known. */
  horizons?: string;
  clauses?: number;
  seconds?: number;
  unsupported?: string;
  plan?: string;
}

async function main(): Promise<void> {
  const solver = await createSolver(solverName).version();
  const catalog = selectLevels(loadLevelCatalog(), args.only, fail);
  console.log(
    `hexahop benchmark, ${solver}, cap ${capSec} s per level, parallelism ${parallelism}, policy ${policy}${patienceSec === undefined ? '' : `, patience ${patienceSec} s`}, presets ${presets ? 'on' : 'off'}, quick plan ${quickPlan ? 'on' : 'off'}, plans ${args.plans}${minHorizon === undefined ? '' : `, from horizon ${minHorizon}`}`,
  );
  const rows: Row[] = [];
  const interrupted = abortOnSignals();
  for (const entry of catalog) {
    if (interrupted.aborted) break;
    const base = { number: entry.number, level: entry.name, file: entry.file, par: entry.par };
    if (!entry.supported) {
      rows.push({ ...base, status: 'unsupported', unsupported: entry.unsupported.join(', ') });
      continue;
    }
    const instance = instanceOfLevel(entry);
    const given = givenPlans.get(entry.name);
    const report = await solveParsed(hexahopGame, instance, {
      ...(variant === undefined ? {} : { encoding: variant }),
      solver: solverName,
      parallelism,
      timeoutSec: capSec,
      policy,
      presets,
      quickPlan,
      signal: interrupted,
      ...(given === undefined ? {} : { plan: given }),
      ...(minHorizon === undefined ? {} : { minHorizon }),
      ...(patienceSec === undefined ? {} : { patienceSec }),
    });
    const plan = report.solution as HexahopSolution | undefined;
    const row: Row = {
      ...base,
      status: report.status,
      lower: hexahopLowerBound(instance),
      bounds: `${report.bounds.lower}..${report.bounds.upper ?? '?'}`,
      horizons: report.horizons.map(horizonText).join(' '),
      clauses: report.stats.clauses,
      seconds: Math.round(report.stats.wallMs / 100) / 10,
      ...(plan === undefined
        ? {}
        : { moves: plan.moves.length, score: plan.score, plan: plan.moves.join(' ') }),
    };
    rows.push(row);
    console.log(
      `${entry.number} ${entry.name}: ${row.status} moves=${row.moves ?? '-'} score=${row.score ?? '-'} par=${row.par} ` +
        `bounds=${row.bounds} ${row.seconds}s`,
    );
  }
  console.table(rows.map(({ plan: _plan, file: _file, horizons: _horizons, ...shown }) => shown));
  const supported = rows.filter((r) => r.status !== 'unsupported');
  const summary = {
    levels: rows.length,
    supported: supported.length,
    optimal: supported.filter((r) => r.status === 'optimal').length,
    solvedUnproven: supported.filter((r) => r.status === 'satisfiable').length,
    unknown: supported.filter((r) => r.status === 'unknown').length,
    atOrBelowPar: supported.filter((r) => r.score !== undefined && r.score <= r.par).length,
  };
  console.log(JSON.stringify(summary));
  writeResults(out, {
    bench: 'hexahop',
    solver,
    ...machineFields(),
    capSeconds: capSec,
    parallelism,
    policy,
    patienceSeconds: patienceSec ?? null,
    presets,
    quickPlan,
    plans: args.plans,
    minHorizon: minHorizon ?? null,
    variant: variant ?? null,
    // Cut short by a signal: the last row holds what its solve proved by then, later levels none.
    interrupted: interrupted.aborted,
    summary,
    rows,
  });
}

await main();
