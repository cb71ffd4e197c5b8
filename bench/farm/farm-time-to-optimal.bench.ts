import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';

import { solveParsed } from '@satfarm/engine';
import { generateScramble, generateSnake } from '@satfarm/games';
import type { JobResource } from '@satfarm/queue';

import { get, JobFollower, post, printTable, startBenchFarm, writeResult } from './farm-bench.fixture.js';
import { gamesWithStaircase } from './staircase.game.js';
import { median } from '../statistics.js';

/**
 * Time to the final answer of the same instances solved in this process (`solveParsed`, the path
 * of `satfarm solve`) and through the farm (`POST /v1/jobs` to the final websocket event), with
 * the same parallelism and policy, the farm having as many solver slots as the parallelism, after
 * one untimed run of each.
 * Target: farm / in-process <= 1.10. Instances: cubes (2x2 and 3x3 scrambles) and Snake
 * instances (the games the farm is for), the CNF examples, pigeon ladders (horizon sweeps whose
 * UNSAT proofs below the optimum grow hard) and staircases. Medians of `runs` runs.
 *
 *   node dist/bench/farm/farm-time-to-optimal.bench.js [runs] [parallelism]
 *
 * Prints a table and writes bench/results/farm-time-to-optimal.json.
 */

const RUNS = Number(process.argv[2] ?? 3);
const PARALLELISM = Number(process.argv[3] ?? 2);

interface Instance {
  name: string;
  game: string;
  input: unknown;
}

function instances(): Instance[] {
  const cnf = readdirSync('examples')
    .filter((f) => f.endsWith('.cnf'))
    .sort()
    .map((f) => ({ name: f, game: 'cnf', input: readFileSync(join('examples', f), 'utf8') }));
  const cube = (size: 2 | 3, moves: number, seed: number): Instance => {
    const scramble = generateScramble(size, moves, seed).join(' ');
    return { name: `cube ${size}x${size} ${moves}m`, game: 'cube', input: { size, scramble } };
  };
  const snake = (side: number, apples: number, seed: number): Instance => ({
    name: `snake ${side}x${side} ${apples} apples #${seed}`,
    game: 'snake',
    input: generateSnake({ width: side, height: side, apples, seed }),
  });
  return [
    cube(2, 11, 1),
    cube(2, 14, 2),
    cube(3, 7, 3),
    cube(3, 8, 4),
    snake(8, 5, 1),
    snake(10, 9, 2),
    snake(10, 9, 3),
    ...cnf,
    { name: 'pigeons-8', game: 'pigeons', input: { pigeons: 8 } },
    { name: 'pigeons-9', game: 'pigeons', input: { pigeons: 9 } },
    { name: 'pigeons-10', game: 'pigeons', input: { pigeons: 10 } },
    { name: 'staircase-12', game: 'staircase', input: { optimum: 12, holes: { 9: 8, 10: 8, 11: 9 } } },
  ];
}

const farm = await startBenchFarm(PARALLELISM);
const follower = await JobFollower.connect(farm.url);
const rows: Array<Record<string, string | number>> = [];
try {
  for (const instance of instances()) {
    const game = gamesWithStaircase(instance.game);
    const local: number[] = [];
    const remote: number[] = [];
    let status = '';
    // One untimed run of each first: both sides warm (JIT, the solver's version lookup, caches).
    for (let run = -1; run < RUNS; run++) {
      const start = performance.now();
      // Single-solve games (cnf) take no policy.
      const policy = game.planning ? { policy: 'consecutive' } : {};
      const report = await solveParsed(game, game.parse(instance.input), {
        parallelism: PARALLELISM,
        ...policy,
      });
      if (run >= 0) local.push(performance.now() - start);
      const submitted = performance.now();
      const { id } = await post<{ id: string }>(farm.url, '/v1/jobs', {
        game: instance.game,
        instance: instance.input,
        options: { parallelism: PARALLELISM, ...policy },
      });
      await follower.subscribe({ jobId: id });
      const end = await follower.end(id);
      if (run >= 0) remote.push(end.at - submitted);
      const job = await get<JobResource>(farm.url, `/v1/jobs/${id}`);
      if (job.status !== report.status)
        throw new Error(`${instance.name}: farm says ${job.status}, in-process ${report.status}`);
      status = job.status;
    }
    const inProcessMs = median(local);
    const farmMs = median(remote);
    rows.push({ instance: instance.name, status, inProcessMs, farmMs, ratio: farmMs / inProcessMs });
  }
  printTable(rows);
  const total = (key: string): number => rows.reduce((sum, r) => sum + (r[key] as number), 0);
  const overall = total('farmMs') / total('inProcessMs');
  console.log(
    `overall (sum of medians) farm / in-process: ${overall.toFixed(3)} (target <= 1.10); load average ${loadavg()[0]?.toFixed(2)}`,
  );
  console.log(
    `wrote ${await writeResult('farm-time-to-optimal', { runs: RUNS, parallelism: PARALLELISM, loadAverage: loadavg()[0], overall, rows, target: 1.1 })}`,
  );
} finally {
  follower.close();
  await farm.stop();
}
