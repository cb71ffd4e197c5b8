import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { generateScramble } from '@satfarm/games';

import { processTimes, readProc, TICKS_PER_SECOND } from '../farm/proc-files.js';
import {
  benchArgs,
  integerOption,
  machineFields,
  positiveOption,
  resultsPath,
  writeResults,
} from '../hexahop/bench-options.js';
import { median } from '../statistics.js';

/**
 * One hard instance and spare slots: the time to a proven optimum of `satfarm solve` with the
 * portfolio off and on, and for the 3x3 with the sweep's old bound and its new one, side by side
 * in one run, for 2, 4 and 8 solver slots.
 *
 * - portfolio off: `--parallel S`, S horizons in flight;
 * - portfolio on: `--parallel ceil(S/2) --slots S --portfolio 2`, half the slots to horizons and
 *   half to their siblings (docs/cli.md, `--portfolio`), the record learning across the run from
 *   empty;
 * - bound `old`: the small pattern databases (`SATFARM_PDB_DIR=off`) and the sweep one below the
 *   bound (`--no-trust-bound`), the sweep as it was before the pattern tables;
 * - bound `search`: the pattern tables, the bound's search, and the sweep at the bound
 *   (docs/games.md#cube), but no quick plan (`--no-quick-plan`): the solver finds the plan;
 * - bound `new`: the defaults, which add the quick plan: the plan the bound's search found.
 * Hex-a-Hop has one bound, so only `old` rows.
 *
 * Instances: 3x3 scrambles of 8, 9 and 10 moves in the quarter-turn metric (quarter turns only)
 * and the half-turn metric, and five
 * Hex-a-Hop levels that took 30 s to 10 minutes (bench/results/hexahop-levels.json). On a 2-core
 * machine 4 and 8 slots are oversubscribed: each run reports its wall time and the CPU time of
 * every process it started. A run the cap stops counts as the cap.
 *
 *   node dist/bench/solver/portfolio.bench.js [--slots 2,4,8] [--only cube|hexahop]
 *     [--instances REGEX] [--cap SECONDS] [--out NAME]
 *
 * Prints a table and writes bench/results/portfolio.json (or --out).
 */

interface Instance {
  name: string;
  game: string;
  input: object;
}

type Portfolio = 'off' | 'on';
type Bound = 'old' | 'search' | 'new';

interface Run {
  instance: string;
  slots: number;
  portfolio: Portfolio;
  bound: Bound;
  status: string;
  horizon?: number;
  wallS: number;
  cpuS: number;
  capped: boolean;
  /** How many raced horizons each configuration answered. */
  winners?: Record<string, number>;
}

const { args, fail } = benchArgs('portfolio', {
  slots: { type: 'string', default: '2,4,8' },
  only: { type: 'string' },
  instances: { type: 'string' },
  cap: { type: 'string', default: '600' },
  modes: { type: 'string', default: 'old/off,old/on,search/off,search/on,new/off' },
  out: { type: 'string', default: 'portfolio' },
});
const slotCounts = args.slots.split(',').map((s) => integerOption(s.trim(), 1, 'slots', fail));
const capS = positiveOption(args.cap, 'cap', fail);
if (args.only !== undefined && args.only !== 'cube' && args.only !== 'hexahop')
  fail('only', `expected cube or hexahop, got '${args.only}'`);
const pattern = args.instances === undefined ? undefined : new RegExp(args.instances, 'i');
const modes = args.modes.split(',').map((text) => {
  const [bound, portfolio] = text.trim().split('/');
  if (
    (bound !== 'old' && bound !== 'search' && bound !== 'new') ||
    (portfolio !== 'off' && portfolio !== 'on')
  )
    fail('modes', `expected bound/portfolio pairs such as old/off or search/on, got '${text}'`);
  return { bound: bound as Bound, portfolio: portfolio as Portfolio };
});

const HEXAHOP_LEVELS = ['Stripes', 'Not a Knot', 'Branching Pathway', 'Two Fish', 'Trigger Happy'];

/**
 * A scramble of `moves` quarter turns, seeded: no turn undone at once, no face turned three times
 * running (`generateScramble` draws half turns too, which count two in the quarter-turn metric).
 */
function quarterTurnScramble(moves: number, seed: number): string {
  const faces = ['U', 'D', 'L', 'R', 'F', 'B'];
  let state = seed;
  const next = (n: number): number => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    // The low bits of this generator cycle with a short period (bit 0 alternates); draw from the high ones.
    return Math.floor((state / 2 ** 31) * n);
  };
  const out: string[] = [];
  while (out.length < moves) {
    const move = `${faces[next(6)]}${next(2) === 0 ? '' : "'"}`;
    const last = out.at(-1);
    if (last !== undefined && last[0] === move[0] && last !== move) continue;
    if (out.length >= 2 && out.at(-2) === move && last === move) continue;
    out.push(move);
  }
  return out.join(' ');
}

function instances(): Instance[] {
  const cube: Instance[] = ['qtm', 'htm'].flatMap((metric) =>
    [8, 9, 10].map((moves) => {
      const scramble =
        metric === 'qtm'
          ? quarterTurnScramble(moves, 4200 + moves)
          : generateScramble(3, moves, 4200 + moves).join(' ');
      return {
        name: `3x3 ${metric} ${moves}m (${scramble})`,
        game: 'cube',
        input: { size: 3, metric, scramble },
      };
    }),
  );
  const hexahop = HEXAHOP_LEVELS.map((level) => ({
    name: `hexahop ${level}`,
    game: 'hexahop',
    input: { level },
  }));
  const all = [...(args.only === 'hexahop' ? [] : cube), ...(args.only === 'cube' ? [] : hexahop)];
  return pattern === undefined ? all : all.filter((i) => pattern.test(i.name));
}

/** Every process under `root`, through the children of each of its threads (a solver's parent may be a worker thread). */
function descendantsOf(root: number): number[] {
  const found: number[] = [];
  const frontier = [root];
  while (frontier.length > 0) {
    const pid = frontier.pop()!;
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tasks) {
      for (const child of readProc(pid, `task/${tid}/children`).split(/\s+/).filter(Boolean).map(Number)) {
        found.push(child);
        frontier.push(child);
      }
    }
  }
  return found;
}

/**
 * The CPU a process tree uses, sampled from /proc every 100 ms: the most each process was seen
 * to have used, summed. A solver's parent may never be reaped by the tree (the spawn host dies
 * with its owner), so the kernel's children's times would miss it; the last tenth of a second of
 * each process is missed instead.
 */
function sampleCpu(root: number): () => number {
  const seen = new Map<number, number>();
  const sample = (): void => {
    for (const pid of [root, ...descendantsOf(root)]) {
      const times = processTimes(pid);
      if (times !== undefined) seen.set(pid, Math.max(seen.get(pid) ?? 0, times.own));
    }
  };
  sample();
  const timer = setInterval(sample, 100);
  return () => {
    clearInterval(timer);
    return [...seen.values()].reduce((sum, ticks) => sum + ticks, 0) / TICKS_PER_SECOND;
  };
}

const CLI = resolve('bin/satfarm');

async function solve(
  instance: Instance,
  slots: number,
  portfolio: Portfolio,
  bound: Bound,
  record: string,
): Promise<Run> {
  const parallel = portfolio === 'off' ? slots : Math.ceil(slots / 2);
  const flags =
    portfolio === 'off'
      ? ['--parallel', String(slots), '--portfolio', 'off']
      : ['--parallel', String(parallel), '--slots', String(slots), '--portfolio', '2'];
  const started = performance.now();
  const child = spawn(
    CLI,
    [
      'solve',
      instance.game,
      '--input',
      JSON.stringify(instance.input),
      '--json',
      '--timeout',
      String(capS),
      ...flags,
      ...(bound === 'old' ? ['--no-trust-bound'] : []),
      ...(bound === 'search' ? ['--no-quick-plan'] : []),
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        SATFARM_PORTFOLIO_RECORD: record,
        ...(bound === 'old' ? { SATFARM_PDB_DIR: 'off' } : {}),
      },
    },
  );
  const cpuOfTree = sampleCpu(child.pid!);
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await new Promise((done) => child.on('close', done));
  const wallS = (performance.now() - started) / 1000;
  const cpuS = cpuOfTree();
  let report: {
    status?: string;
    horizon?: number;
    horizons?: Array<{ config?: string; raced?: unknown[] }>;
  } = {};
  try {
    report = JSON.parse(out) as typeof report;
  } catch {
    report = { status: `exit ${child.exitCode}` };
  }
  const status = report.status ?? 'unknown';
  const capped = status !== 'optimal';
  const racedLines = (report.horizons ?? []).filter((h) => h.config !== undefined);
  return {
    instance: instance.name,
    slots,
    portfolio,
    bound,
    status,
    ...(report.horizon === undefined ? {} : { horizon: report.horizon }),
    wallS: capped ? Math.max(capS, wallS) : wallS,
    cpuS,
    capped,
    ...(portfolio === 'on' ? { winners: countBy(racedLines.map((h) => h.config!)) } : {}),
  };
}

function countBy(keys: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const key of keys) counts[key] = (counts[key] ?? 0) + 1;
  return counts;
}

const fmt = (s: number, capped: boolean): string => `${capped ? '>' : ''}${s.toFixed(1)}`;

const dir = mkdtempSync(join(tmpdir(), 'satfarm-portfolio-bench-'));
const record = join(dir, 'record.json');
const runs: Run[] = [];
try {
  for (const instance of instances()) {
    for (const slots of slotCounts) {
      for (const { bound, portfolio } of modes) {
        if (bound !== 'old' && instance.game !== 'cube') continue;
        const run = await solve(instance, slots, portfolio, bound, record);
        runs.push(run);
        console.log(
          `${instance.name.padEnd(40)} slots ${slots} bound ${bound} portfolio ${portfolio.padEnd(3)} ${run.status.padEnd(10)} ` +
            `T=${run.horizon ?? '-'} wall ${fmt(run.wallS, run.capped)} s  cpu ${run.cpuS.toFixed(1)} s` +
            (run.winners === undefined ? '' : `  won by ${JSON.stringify(run.winners)}`),
        );
      }
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/** Median and worst wall time of one set of instances under one slot count and mode. */
function summary(rows: Run[]): { medianS: number; worstS: number; cpuS: number } {
  return {
    medianS: median(rows.map((r) => r.wallS)),
    worstS: Math.max(...rows.map((r) => r.wallS)),
    cpuS: rows.reduce((sum, r) => sum + r.cpuS, 0),
  };
}

const sets = [
  ['3x3', (r: Run) => r.instance.startsWith('3x3')],
  ['hexahop', (r: Run) => r.instance.startsWith('hexahop')],
] as const;
const summaries: Record<string, unknown> = {};
console.log(
  '\nset      slots  bound/portfolio  median (s)  worst (s)  CPU (s)   worst old/off over this   median',
);
for (const [set, inSet] of sets) {
  for (const slots of slotCounts) {
    const rowsOf = (bound: Bound, portfolio: Portfolio) =>
      runs.filter((r) => inSet(r) && r.slots === slots && r.bound === bound && r.portfolio === portfolio);
    const base = rowsOf('old', 'off');
    if (base.length === 0) continue;
    const a = summary(base);
    for (const { bound, portfolio } of modes) {
      const rows = rowsOf(bound, portfolio);
      if (rows.length === 0) continue;
      const b = summary(rows);
      const key = `${set} ${slots} slots ${bound}/${portfolio}`;
      summaries[key] = { ...b, worstRatio: a.worstS / b.worstS, medianRatio: a.medianS / b.medianS };
      console.log(
        `${set.padEnd(8)} ${String(slots).padStart(5)}  ${`${bound}/${portfolio}`.padEnd(15)}` +
          `${b.medianS.toFixed(1).padStart(10)} ${b.worstS.toFixed(1).padStart(10)} ${b.cpuS.toFixed(0).padStart(8)}` +
          `${(a.worstS / b.worstS).toFixed(2).padStart(12)}x ${(a.medianS / b.medianS).toFixed(2).padStart(12)}x`,
      );
    }
  }
}

writeResults(resultsPath(args.out), {
  benchmark: 'portfolio',
  ...machineFields(),
  loadavg: loadavg(),
  capS,
  slots: slotCounts,
  modes: modes.map((m) => `${m.bound}/${m.portfolio}`),
  runs,
  summaries,
});
