import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { snakeInstanceFromPddl } from '@satfarm/games';

import {
  benchArgs,
  integerOption,
  machineFields,
  positiveOption,
  resultsPath,
  writeResults,
} from '../hexahop/bench-options.js';

/**
 * The 20 problems of the IPC-2018 Snake domain, optimal track (docs/cli.md#pddl-input), each
 * solved by `satfarm solve snake --input <file> --json --timeout CAP`: the status, the plan's
 * length, the proven optimum or, for a problem the cap left open, how far the sweep got (the
 * highest horizon proven UNSAT and the shortest plan found), beside the bounds known for the
 * problems no planner has closed. The problems are read from `../shared/snake-ipc2018` beside the
 * repository (`--dir` names another folder); they are not part of it.
 *
 *   node dist/bench/snake/snake-ipc.bench.js [--cap SECONDS] [--problems REGEX] [--parallel N]
 *     [--dir FOLDER] [--out NAME|PATH]
 *
 * Prints a table and writes bench/results/snake-ipc.json (or --out).
 */

/** Bounds on the optimum known for the problems still open (lower..upper). */
const KNOWN_OPEN: Record<string, [number, number]> = {
  p13: [62, 65],
  p14: [77, 86],
  p19: [89, 130],
};

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

const { args, fail } = benchArgs('snake-ipc', {
  cap: { type: 'string', default: '300' },
  problems: { type: 'string' },
  parallel: { type: 'string' },
  dir: { type: 'string', default: join(REPO_ROOT, '..', 'shared', 'snake-ipc2018') },
  out: { type: 'string', default: 'snake-ipc' },
});
const capS = positiveOption(args.cap, 'cap', fail);
const parallel = args.parallel === undefined ? undefined : integerOption(args.parallel, 1, 'parallel', fail);
let pattern: RegExp | undefined;
try {
  pattern = args.problems === undefined ? undefined : new RegExp(args.problems, 'i');
} catch (error) {
  fail('problems', (error as Error).message);
}
const dir = resolve(args.dir);
if (!existsSync(dir)) fail('dir', `no folder ${dir}`);

const problems = readdirSync(dir)
  .filter((f) => /^p\d+\.pddl$/.test(f))
  .sort()
  .map((f) => f.replace(/\.pddl$/, ''))
  .filter((p) => pattern === undefined || pattern.test(p));
if (problems.length === 0) fail('problems', `no problem p<N>.pddl in ${dir} matches`);

interface HorizonLine {
  t: number;
  result: string;
}

interface Report {
  status?: string;
  horizon?: number;
  bounds?: { lower: number; upper?: number };
  horizons?: HorizonLine[];
}

interface Run {
  problem: string;
  grid: string;
  apples: number;
  spawns: number;
  exitCode: number | null;
  status: string;
  /** The shortest plan's length, when one was found. */
  planLength?: number;
  /** The proven optimum, when the sweep closed the problem. */
  optimum?: number;
  /** The bracket reached: the lower bound (one above the highest UNSAT horizon) and the best plan. */
  lower?: number;
  upper?: number;
  highestUnsat?: number;
  bestSat?: number;
  horizonsAnswered: { sat: number; unsat: number; other: number };
  known?: [number, number];
  wallS: number;
}

const CLI = join(REPO_ROOT, 'bin', 'satfarm');

/** One `solve`, its JSON report read; a run past the cap by a minute is stopped (SIGTERM) and reports what it reached. */
async function solve(problem: string): Promise<Run> {
  const file = join(dir, `${problem}.pddl`);
  const instance = snakeInstanceFromPddl(readFileSync(file, 'utf8'));
  const flags = ['--input', file, '--json', '--timeout', String(capS)];
  if (parallel !== undefined) flags.push('--parallel', String(parallel));
  const started = performance.now();
  const child = spawn(CLI, ['solve', 'snake', ...flags], { stdio: ['ignore', 'pipe', 'inherit'] });
  const guard = setTimeout(() => child.kill('SIGTERM'), (capS + 60) * 1000);
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exitCode = await new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  clearTimeout(guard);
  const wallS = (performance.now() - started) / 1000;
  let report: Report;
  try {
    report = JSON.parse(out) as Report;
  } catch {
    report = { status: `exit ${exitCode}` };
  }
  const lines = report.horizons ?? [];
  const ts = (result: string): number[] => lines.filter((h) => h.result === result).map((h) => h.t);
  const unsat = ts('unsat');
  const sat = ts('sat');
  const status = report.status ?? 'unknown';
  const known = KNOWN_OPEN[problem];
  return {
    problem,
    grid: `${instance.width}x${instance.height}`,
    apples: instance.apples.length,
    spawns: instance.spawn?.length ?? 0,
    exitCode,
    status,
    ...(report.horizon === undefined ? {} : { planLength: report.horizon }),
    ...(status === 'optimal' && report.horizon !== undefined ? { optimum: report.horizon } : {}),
    ...(report.bounds === undefined ? {} : { lower: report.bounds.lower }),
    ...(report.bounds?.upper === undefined ? {} : { upper: report.bounds.upper }),
    ...(unsat.length === 0 ? {} : { highestUnsat: Math.max(...unsat) }),
    ...(sat.length === 0 ? {} : { bestSat: Math.min(...sat) }),
    horizonsAnswered: {
      sat: sat.length,
      unsat: unsat.length,
      other: lines.length - sat.length - unsat.length,
    },
    ...(known === undefined ? {} : { known }),
    wallS,
  };
}

const cell = (value: number | undefined): string => (value === undefined ? '-' : String(value));

const header =
  'problem  grid  spawns  status         plan  optimum  bracket    UNSAT<=  best SAT  known      wall (s)';
console.log(header);
const runs: Run[] = [];
for (const problem of problems) {
  const run = await solve(problem);
  runs.push(run);
  const closed = run.optimum !== undefined;
  const bracket = run.lower === undefined ? '-' : `${run.lower}..${run.upper ?? '?'}`;
  console.log(
    `${run.problem.padEnd(8)} ${run.grid.padEnd(5)} ${String(run.spawns).padStart(6)}  ${run.status.padEnd(13)}` +
      ` ${cell(run.planLength).padStart(4)}  ${cell(run.optimum).padStart(7)}  ${(closed ? '' : bracket).padEnd(9)}` +
      `  ${(closed ? '' : cell(run.highestUnsat)).padStart(7)}  ${(closed ? '' : cell(run.bestSat)).padStart(8)}` +
      `  ${(run.known === undefined ? '' : `${run.known[0]}..${run.known[1]}`).padEnd(9)}  ${run.wallS.toFixed(1).padStart(8)}`,
  );
}
const closed = runs.filter((r) => r.optimum !== undefined).length;
console.log(`\n${closed} of ${runs.length} problems proven optimal within ${capS} s each`);

writeResults(resultsPath(args.out), {
  benchmark: 'snake-ipc',
  ...machineFields(),
  loadavg: loadavg(),
  capS,
  ...(parallel === undefined ? {} : { parallel }),
  runs,
});
