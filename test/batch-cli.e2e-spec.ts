import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { BatchResource, BatchSummary, JobResource } from '@satfarm/queue';

import { http, ProgressClient } from './support/farm-client.js';
import { type ServeProcess, startServe } from './support/farm-processes.js';
import { type CliRun, repoRoot, runCli } from './support/run-cli.js';

/** The embedded default with a prefix of this spec's own. */
const env: NodeJS.ProcessEnv = {
  ...process.env,
  REDIS_URL: '',
  SATFARM_PREFIX: `satfarm-batch-cli-${process.pid}`,
};
let serve: ServeProcess;
let dir: string;

/** Runs `bin/satfarm args... --api <the spec's farm>`, feeding `stdin`. */
function satfarm(args: string[], stdin = ''): Promise<CliRun> {
  return runCli([...args, '--api', serve.url], { stdin, env });
}

/** What the farm holds: its batches and its jobs (both well under a page here). */
async function farmContents(): Promise<{ batches: number; jobs: number }> {
  const batches = await http<{ batches: BatchSummary[] }>(serve.url, 'GET', '/v1/batches?limit=500');
  const jobs = await http<{ jobs: JobResource[] }>(serve.url, 'GET', '/v1/jobs?limit=500');
  return { batches: batches.body.batches.length, jobs: jobs.body.jobs.length };
}

/** Writes `files` (name to content) into a new folder under the spec's own. */
function folder(name: string, files: Record<string, string>): string {
  const path = join(dir, name);
  mkdirSync(path);
  for (const [file, text] of Object.entries(files)) writeFileSync(join(path, file), text);
  return path;
}

/** A DIMACS formula that only `x1 = value` satisfies. */
const unit = (value: boolean): string => `p cnf 1 1\n${value ? 1 : -1} 0\n`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'satfarm-batch-cli-'));
  serve = await startServe(['--port', '0', '--workers', '2'], env);
});

afterAll(async () => {
  await serve?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('satfarm batch', () => {
  const mixed: Record<string, string> = {
    'a-cube.json': JSON.stringify({ size: 2, scramble: 'R U' }),
    'b-cube.json': JSON.stringify({ size: 2, scramble: "F R'" }),
    'c-snake.json': JSON.stringify({ width: 3, height: 3, apples: [[2, 2]] }),
    'd-towers.txt': readFileSync(join(repoRoot, 'examples/towers-5.txt'), 'utf8'),
    'e-singles.txt': readFileSync(join(repoRoot, 'examples/singles-6x6.txt'), 'utf8'),
    'f.cnf': 'p cnf 2 2\n1 2 0\n-1 0\n',
    'g.cnf': readFileSync(join(repoRoot, 'examples/php-6.cnf'), 'utf8'),
  };

  it('submits a folder of mixed instances, follows it to the end, and exports one line and row a job', async () => {
    const path = folder('mixed', mixed);
    const run = await satfarm(['batch', 'submit', path, '--wait', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const submitted = JSON.parse(run.stdout) as { batchId: string; size: number; existing: boolean };
    expect(submitted).toMatchObject({ size: 7, existing: false });
    // Not a terminal: plain lines, the last one the whole batch done.
    expect(run.stderr.trimEnd().split('\n').at(-1)).toMatch(
      new RegExp(`^batch ${submitted.batchId}: 7/7 done \\(`),
    );

    const jsonl = await satfarm(['batch', 'results', submitted.batchId]);
    expect(jsonl.code, jsonl.stderr).toBe(0);
    const jobs = jsonl.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as JobResource);
    expect(jobs.map((job) => [job.game, job.status])).toEqual([
      ['cube', 'optimal'],
      ['cube', 'optimal'],
      ['snake', 'optimal'],
      ['towers', 'satisfiable'],
      ['singles', 'satisfiable'],
      ['cnf', 'satisfiable'],
      ['cnf', 'unsatisfiable'],
    ]);
    // Two quarter turns of two faces: no single move undoes them.
    expect(jobs[0]!.horizon).toBe(2);
    expect(jobs[1]!.horizon).toBe(2);
    expect(jobs[3]!.verified).toBe(true);

    const out = join(dir, 'results.csv');
    const csv = await satfarm(['batch', 'results', submitted.batchId, '--format', 'csv', '--output', out]);
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout).toBe('');
    const rows = readFileSync(out, 'utf8').trimEnd().split('\n');
    expect(rows[0]).toMatch(/^id,game,summary,status,/);
    // One row a job in submission order, each opening with its id (rows of quoted newlines aside).
    const rowOf = jobs.map((job) => rows.find((row) => row.startsWith(`${job.id},`)));
    expect(rowOf.map((row, i) => row?.includes(`,${jobs[i]!.status},`))).toEqual(jobs.map(() => true));
    expect(rows.filter((row) => /^[^,"]+,(cube|snake|towers|singles|cnf),/.test(row))).toHaveLength(7);

    // The same folder again: the same batch, nothing queued.
    const before = await farmContents();
    const again = await satfarm(['batch', 'submit', path, '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ batchId: submitted.batchId, size: 7, existing: true });
    expect(await farmContents()).toEqual(before);

    const status = await satfarm(['batch', 'status', submitted.batchId, '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({
      batchId: submitted.batchId,
      size: 7,
      done: true,
      label: 'mixed',
    });
    const list = await satfarm(['batch', 'list']);
    expect(list.stdout.split('\n')[0]).toMatch(/^id +label +created +size +done +counts$/);
    expect(list.stdout).toMatch(new RegExp(`^${submitted.batchId} +mixed .* 7/7 `, 'm'));
  });

  it('refuses a folder with a bad file naming the file and the field, and queues nothing', async () => {
    const before = await farmContents();
    const path = folder('bad-file', {
      ...mixed,
      'c-snake.json': JSON.stringify({ width: 3, apples: [[2, 2]] }),
    });
    const run = await satfarm(['batch', 'submit', path, '--wait']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`satfarm: bad input: ${join(path, 'c-snake.json')}: height: required\n`);
    expect(await farmContents()).toEqual(before);
  });

  it('refuses JSON Lines with a bad line naming the line, and queues nothing', async () => {
    const before = await farmContents();
    const lines = [
      JSON.stringify({ game: 'cnf', instance: unit(true) }),
      '',
      JSON.stringify({ game: 'cube', instance: { size: 2, scramble: 'R W' } }),
    ].join('\n');
    const run = await satfarm(['batch', 'submit', '-'], lines);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^satfarm: bad input: -:3: instance\.scramble: unknown move 'W'/);
    expect(await farmContents()).toEqual(before);
  });

  it('answers an unknown batch with exit 2 naming it', async () => {
    const run = await satfarm(['batch', 'status', 'no-such-batch']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("satfarm: bad input: batchId: the farm has no batch 'no-such-batch'\n");
  });

  it('splits a batch of more than 1000 jobs into several calls and completes it', async () => {
    const lines = Array.from({ length: 1100 }, (_, i) =>
      JSON.stringify({ game: 'cnf', instance: unit(i % 2 === 0) }),
    ).join('\n');
    const run = await satfarm(['batch', 'submit', '-', '--wait', '--json'], lines);
    expect(run.code, run.stderr).toBe(0);
    const { batchId, size } = JSON.parse(run.stdout) as { batchId: string; size: number };
    expect(size).toBe(1100);
    const batch = await http<BatchResource>(serve.url, 'GET', `/v1/batches/${batchId}`);
    expect(batch.body).toMatchObject({ size: 1100, done: true, counts: { satisfiable: 1100 } });
    expect(new Set(batch.body.jobIds).size).toBe(1100);
  });

  it('cancels a batch of slow jobs: they end cancelled and watch exits 3', async () => {
    const php = (await runCli(['generate', 'cnf', '--family', 'php', '--holes', '14'])).stdout;
    const path = folder('slow', { 'a.cnf': php, 'b.cnf': `c b\n${php}`, 'c.cnf': `c c\n${php}` });
    const run = await satfarm(['batch', 'submit', path]);
    expect(run.code, run.stderr).toBe(0);
    const batchId = run.stdout.trim();
    const watch = satfarm(['batch', 'watch', batchId]);
    // Cancel once the farm runs them, so the cancel reaches running solvers as well as queued jobs.
    const progress = await ProgressClient.connect(serve.url);
    try {
      const ack = await progress.subscribe({ batchId });
      if ((ack.batch?.counts.running ?? 0) === 0)
        await progress.batchWhere((e) => e.batchId === batchId && (e.counts.running ?? 0) > 0);
    } finally {
      progress.close();
    }
    const cancel = await satfarm(['batch', 'cancel', batchId]);
    expect(cancel.code, cancel.stderr).toBe(0);
    const watched = await watch;
    expect(watched.code, watched.stderr).toBe(3);
    const { body } = await http<BatchResource>(serve.url, 'GET', `/v1/batches/${batchId}`);
    expect(body).toMatchObject({ done: true, counts: { cancelled: 3 } });
  });
});
