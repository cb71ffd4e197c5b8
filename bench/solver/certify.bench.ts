import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';

import { generateScramble } from '@satfarm/games';

import {
  benchArgs,
  machineFields,
  positiveOption,
  resultsPath,
  writeResults,
} from '../hexahop/bench-options.js';
import { median } from '../statistics.js';

/**
 * What certified answers cost (docs/solvers.md#certified-answers): each instance solved by
 * `satfarm solve --parallel 1` twice, side by side in one run, without and with `--certify`
 * (every UNSAT answer's DRAT proof checked by drat-trim before it counts). One horizon in flight
 * so that the two runs' times compare.
 *
 * The two runs must give the same status and horizon (the proofs check the answers, they do not
 * change them): a disagreement, a proof not verified, or an optimum not certified is flagged in
 * the table (`!!`) and in the JSON (`problems`), and makes the process exit 1.
 *
 * Instances: 2x2 scrambles (half-turn metric, seeded), 3x3 scrambles of 6 to 8 moves, the IPC-2018
 * Snake problems p01, p04, p05, p06 and p09 (from `../shared/snake-ipc2018` beside the repository,
 * left out when it is absent) and examples/snake-8x8.json, and a dozen Hex-a-Hop levels that took
 * under 12 s in bench/results/hexahop-levels.json. A run the cap stops counts as the cap.
 *
 *   node dist/bench/solver/certify.bench.js [--only cube2|cube3|snake|hexahop]
 *     [--instances REGEX] [--cap SECONDS] [--out NAME|PATH]
 *
 * Prints a table and writes bench/results/certify.json (or --out).
 */

type SetName = 'cube2' | 'cube3' | 'snake' | 'hexahop';
const SETS: readonly SetName[] = ['cube2', 'cube3', 'snake', 'hexahop'];

interface Instance {
  set: SetName;
  name: string;
  game: string;
  /** What `--input` gets: inline JSON or a file. */
  input: string;
}

interface ProofFigures {
  bytes: number;
  checkMs: number;
  result: string;
}

interface HorizonLine {
  t: number;
  result: string;
  reason?: string;
  proof?: ProofFigures;
}

interface Report {
  status?: string;
  horizon?: number;
  certified?: boolean;
  horizons?: HorizonLine[];
}

interface Run {
  status: string;
  horizon?: number;
  wallS: number;
  capped: boolean;
  exitCode: number | null;
  /** Each horizon line: `<t><U|S|?>` (unsat, sat, anything else), in the report's order. */
  lines: string;
  certified?: boolean;
  /** Certified runs: the proofs of the report's horizon lines, summed. */
  proofs?: {
    count: number;
    verified: number;
    bytes: number;
    checkMs: number;
    largest?: { t: number; bytes: number; checkMs: number };
    /** Lines whose proof was not verified, or that ended unknown for want of one. */
    failed: Array<{ t: number; result: string; reason?: string }>;
  };
}

interface Row {
  set: SetName;
  instance: string;
  game: string;
  input: string;
  off: Run;
  on: Run;
  /** Wall time on / off; undefined when either run was capped. */
  ratio?: number;
  problems: string[];
}

const { args, fail } = benchArgs('certify', {
  only: { type: 'string' },
  instances: { type: 'string' },
  cap: { type: 'string', default: '300' },
  out: { type: 'string', default: 'certify' },
});
const capS = positiveOption(args.cap, 'cap', fail);
if (args.only !== undefined && !(SETS as readonly string[]).includes(args.only))
  fail('only', `expected one of ${SETS.join(', ')}, got '${args.only}'`);
const pattern = args.instances === undefined ? undefined : new RegExp(args.instances, 'i');

const ROOT = resolve('.');
const CLI = join(ROOT, 'bin/satfarm');
const SNAKE_IPC_DIR = resolve(ROOT, '../shared/snake-ipc2018');
const SNAKE_IPC_PROBLEMS = ['p01', 'p04', 'p05', 'p06', 'p09'];
/** Levels proven optimal in 0.5 to 12 s (two horizons in flight) by bench/results/hexahop-levels.json. */
const HEXAHOP_LEVELS = [
  'There and Back',
  'Lifts',
  'Breakthrough',
  'Another Mountain',
  'Three Ways To Go',
  'Laser Tiles',
  'Deadly Snowflake',
  'One Two One Two',
  'Telephone',
  'A Little Light Lifting',
  'Winding Order',
  'Toughened Tiles',
];
const SEED = 8100;

function instances(): Instance[] {
  const cube2: Instance[] = [8, 9, 10, 11, 12, 13].map((moves) => {
    const scramble = generateScramble(2, moves, SEED + moves).join(' ');
    return {
      set: 'cube2',
      name: `2x2 ${moves}m (${scramble})`,
      game: 'cube',
      input: JSON.stringify({ size: 2, metric: 'htm', scramble }),
    };
  });
  const cube3: Instance[] = [6, 7, 7, 8].map((moves, i) => {
    const scramble = generateScramble(3, moves, SEED + 100 * moves + i).join(' ');
    return {
      set: 'cube3',
      name: `3x3 ${moves}m (${scramble})`,
      game: 'cube',
      input: JSON.stringify({ size: 3, metric: 'htm', scramble }),
    };
  });
  const ipc = existsSync(SNAKE_IPC_DIR)
    ? SNAKE_IPC_PROBLEMS.map((p): Instance => ({
        set: 'snake',
        name: `snake ipc ${p}`,
        game: 'snake',
        input: join(SNAKE_IPC_DIR, `${p}.pddl`),
      }))
    : [];
  if (ipc.length === 0) console.log(`${SNAKE_IPC_DIR} is absent: the IPC-2018 Snake problems are left out`);
  const snake: Instance[] = [
    ...ipc,
    {
      set: 'snake',
      name: 'snake 8x8 (examples)',
      game: 'snake',
      input: join(ROOT, 'examples/snake-8x8.json'),
    },
  ];
  const hexahop = HEXAHOP_LEVELS.map((level): Instance => ({
    set: 'hexahop',
    name: `hexahop ${level}`,
    game: 'hexahop',
    input: JSON.stringify({ level }),
  }));
  const all = [...cube2, ...cube3, ...snake, ...hexahop].filter(
    (i) => args.only === undefined || i.set === args.only,
  );
  return pattern === undefined ? all : all.filter((i) => pattern.test(i.name));
}

const PROVEN = new Set(['optimal', 'unsatisfiable']);

async function solve(instance: Instance, certify: boolean): Promise<Run> {
  const started = performance.now();
  const child = spawn(
    CLI,
    [
      'solve',
      instance.game,
      '--input',
      instance.input,
      '--json',
      '--no-progress',
      '--parallel',
      '1',
      '--timeout',
      String(capS),
      ...(certify ? ['--certify'] : []),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await new Promise((done) => child.on('close', done));
  const wallS = (performance.now() - started) / 1000;
  let report: Report;
  try {
    report = JSON.parse(out) as Report;
  } catch {
    report = { status: `exit ${child.exitCode}` };
  }
  const status = report.status ?? 'unknown';
  const capped = !PROVEN.has(status);
  const horizons = report.horizons ?? [];
  const letter = (r: string): string => (r === 'unsat' ? 'U' : r === 'sat' ? 'S' : '?');
  const run: Run = {
    status,
    ...(report.horizon === undefined ? {} : { horizon: report.horizon }),
    wallS: capped ? Math.max(capS, wallS) : wallS,
    capped,
    exitCode: child.exitCode,
    lines: horizons.map((h) => `${h.t}${letter(h.result)}`).join(' '),
    ...(report.certified === undefined ? {} : { certified: report.certified }),
  };
  if (!certify) return run;
  const proved = horizons.filter((h) => h.proof !== undefined);
  const largest = proved.reduce<HorizonLine | undefined>(
    (best, h) => (best === undefined || h.proof!.bytes > best.proof!.bytes ? h : best),
    undefined,
  );
  run.proofs = {
    count: proved.length,
    verified: proved.filter((h) => h.proof!.result === 'verified').length,
    bytes: proved.reduce((sum, h) => sum + h.proof!.bytes, 0),
    checkMs: proved.reduce((sum, h) => sum + h.proof!.checkMs, 0),
    ...(largest === undefined
      ? {}
      : { largest: { t: largest.t, bytes: largest.proof!.bytes, checkMs: largest.proof!.checkMs } }),
    failed: horizons
      .filter(
        (h) => (h.proof !== undefined && h.proof.result !== 'verified') || h.reason?.startsWith('proof-'),
      )
      .map((h) => ({
        t: h.t,
        result: h.proof?.result ?? h.result,
        ...(h.reason === undefined ? {} : { reason: h.reason }),
      })),
  };
  return run;
}

/** What is wrong with a pair of runs: answers that differ, proofs not verified, an optimum not certified. */
function problemsOf(off: Run, on: Run): string[] {
  const problems: string[] = [];
  if (off.status !== on.status || off.horizon !== on.horizon) {
    problems.push(
      `DISAGREE: off ${off.status} T=${off.horizon ?? '-'}, on ${on.status} T=${on.horizon ?? '-'}` +
        (off.capped || on.capped ? ' (a run was capped)' : ''),
    );
  }
  const answers = (run: Run): Map<string, string> =>
    new Map(
      run.lines
        .split(' ')
        .filter(Boolean)
        .map((l) => [l.slice(0, -1), l.slice(-1)] as [string, string]),
    );
  const offAnswers = answers(off);
  for (const [t, a] of answers(on)) {
    const b = offAnswers.get(t);
    if ((a === 'U' && b === 'S') || (a === 'S' && b === 'U'))
      problems.push(`DISAGREE at T=${t}: off ${b}, on ${a}`);
  }
  for (const f of on.proofs?.failed ?? [])
    problems.push(`PROOF ${f.result}${f.reason === undefined ? '' : ` (${f.reason})`} at T=${f.t}`);
  if (PROVEN.has(on.status) && on.certified !== true) problems.push(`NOT CERTIFIED: ${on.status}`);
  return problems;
}

const fmtS = (run: Run): string => `${run.capped ? '>' : ''}${run.wallS.toFixed(1)}`;
const mb = (bytes: number): string => (bytes / 1e6).toFixed(bytes < 1e6 ? 3 : 1);

const header =
  `${'instance'.padEnd(44)} ${'status'.padEnd(10)} ${'T'.padStart(3)} ${'off s'.padStart(7)} ${'on s'.padStart(7)} ` +
  `${'ratio'.padStart(6)} ${'proof MB'.padStart(9)} ${'largest'.padStart(8)} ${'check s'.padStart(8)} certified`;

function line(row: Row): string {
  const { off, on } = row;
  const status = off.status === on.status ? off.status : `${off.status}/${on.status}`;
  const horizon =
    off.horizon === on.horizon ? String(off.horizon ?? '-') : `${off.horizon ?? '-'}/${on.horizon ?? '-'}`;
  const p = on.proofs;
  return (
    `${row.instance.slice(0, 44).padEnd(44)} ${status.padEnd(10)} ${horizon.padStart(3)} ${fmtS(off).padStart(7)} ` +
    `${fmtS(on).padStart(7)} ${(row.ratio === undefined ? '-' : `${row.ratio.toFixed(2)}x`).padStart(6)} ` +
    `${(p === undefined ? '-' : mb(p.bytes)).padStart(9)} ${(p?.largest === undefined ? '-' : mb(p.largest.bytes)).padStart(8)} ` +
    `${(p === undefined ? '-' : (p.checkMs / 1000).toFixed(1)).padStart(8)} ${String(on.certified ?? '-')}` +
    (row.problems.length === 0 ? '' : `   !! ${row.problems.join('; ')}`)
  );
}

const loadavgStart = loadavg();
const rows: Row[] = [];
console.log(`loadavg ${loadavgStart.map((l) => l.toFixed(2)).join(' ')}, cap ${capS} s, --parallel 1\n`);
console.log(header);
for (const instance of instances()) {
  const off = await solve(instance, false);
  const on = await solve(instance, true);
  const row: Row = {
    set: instance.set,
    instance: instance.name,
    game: instance.game,
    input: isAbsolute(instance.input) ? relative(ROOT, instance.input) : instance.input,
    off,
    on,
    ...(off.capped || on.capped ? {} : { ratio: on.wallS / off.wallS }),
    problems: problemsOf(off, on),
  };
  rows.push(row);
  console.log(line(row));
}

const summaries: Record<string, unknown> = {};
console.log(
  '\nset       instances  ratio median (min..max)   proof MB total   largest proof MB   check s total',
);
for (const set of SETS) {
  const inSet = rows.filter((r) => r.set === set);
  if (inSet.length === 0) continue;
  const ratios = inSet.flatMap((r) => (r.ratio === undefined ? [] : [r.ratio]));
  const bytes = inSet.reduce((sum, r) => sum + (r.on.proofs?.bytes ?? 0), 0);
  const largest = Math.max(0, ...inSet.map((r) => r.on.proofs?.largest?.bytes ?? 0));
  const checkMs = inSet.reduce((sum, r) => sum + (r.on.proofs?.checkMs ?? 0), 0);
  summaries[set] = {
    instances: inSet.length,
    compared: ratios.length,
    ratioMedian: ratios.length === 0 ? null : median(ratios),
    ratioMin: ratios.length === 0 ? null : Math.min(...ratios),
    ratioMax: ratios.length === 0 ? null : Math.max(...ratios),
    offS: inSet.reduce((sum, r) => sum + r.off.wallS, 0),
    onS: inSet.reduce((sum, r) => sum + r.on.wallS, 0),
    proofBytes: bytes,
    largestProofBytes: largest,
    checkMs,
    problems: inSet.filter((r) => r.problems.length > 0).length,
  };
  const range =
    ratios.length === 0
      ? '-'
      : `${median(ratios).toFixed(2)}x (${Math.min(...ratios).toFixed(2)}..${Math.max(...ratios).toFixed(2)})`;
  console.log(
    `${set.padEnd(9)} ${`${ratios.length}/${inSet.length}`.padStart(9)}  ${range.padEnd(24)} ${mb(bytes).padStart(14)} ` +
      `${mb(largest).padStart(18)} ${(checkMs / 1000).toFixed(1).padStart(15)}`,
  );
}

const problems = rows.flatMap((r) => r.problems.map((p) => `${r.instance}: ${p}`));
if (problems.length > 0) {
  console.log('\n!! PROBLEMS');
  for (const p of problems) console.log(`!! ${p}`);
}

writeResults(resultsPath(args.out), {
  benchmark: 'certify',
  ...machineFields(),
  loadavg: loadavgStart,
  loadavgEnd: loadavg(),
  capS,
  parallel: 1,
  rows,
  summaries,
  problems,
});
if (problems.length > 0) process.exitCode = 1;
