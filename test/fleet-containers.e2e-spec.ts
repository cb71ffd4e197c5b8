import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import type { BatchResource, JobResource } from '@satfarm/queue';

import { http, ProgressClient } from './support/farm-client.js';
import { specDir } from './support/farm-processes.js';
import {
  containerLogs,
  containerProcesses,
  engineEnv,
  freePort,
  labelled,
  podman,
  removeLabelled,
  runScript,
} from './support/fleet-containers.js';
import { repoRoot, runCli } from './support/run-cli.js';

/**
 * The containerised fleet of `npm run fleet`, on the real image `npm run image` builds: a batch
 * of 2x2 cube sweeps solved through its api while a worker is killed, workers are scaled
 * 1 -> 3 -> 1 (the removed ones drain on SIGTERM) and Redis restarts. Every job must end with
 * its proven optimum, none lost or doubled, no solver left running, and nothing the spec made
 * left behind.
 */

/** Scrambles and their optima, solved in-process by `bin/satfarm solve cube --parallel 1`. */
const cubes = JSON.parse(
  readFileSync(join(repoRoot, 'test/fixtures/fleet/cube-2x2-optima.json'), 'utf8'),
) as Array<{
  scramble: string;
  optimum: number;
}>;

const fleet = `e2e-${process.pid}-${randomBytes(3).toString('hex')}`;
// A second name, for the fleet that must not start on a port in use.
const refusedFleet = `${fleet}-refused`;
const spec = specDir();
let env: NodeJS.ProcessEnv;
let api: string;
let apiPort: number;
let prometheusPort: number;
let upMs: number;

const container = (service: string, replica = 1): string => `${fleet}-${service}-${replica}`;
const fleetCommand = (...args: string[]) => runScript('fleet', [...args, '--name', fleet], env);

beforeAll(async () => {
  // The set-up installs podman: without it this spec fails rather than passing untested.
  try {
    execFileSync('podman', ['--version'], { stdio: 'ignore' });
  } catch {
    throw new Error('podman is not installed (scripts/install-system-deps.sh installs it)');
  }
  const image = await runScript('image', [], engineEnv());
  expect(image.code, image.stderr.slice(-2000)).toBe(0);
  process.stderr.write(`fleet-containers: npm run image in ${image.ms} ms\n`);
  // KEY=value lines; the stand-in images are left for the fleet to find by itself.
  const built = Object.fromEntries(
    image.stdout
      .split('\n')
      .map((line) => /^([A-Z_]+)=(.*)$/.exec(line))
      .flatMap((m) => (m === null ? [] : [[m[1]!, m[2]!]])),
  );
  expect(built.SATFARM_IMAGE).toBeTruthy();
  [apiPort, prometheusPort] = [await freePort(), await freePort()];
  env = engineEnv({
    SATFARM_IMAGE: built.SATFARM_IMAGE,
    SATFARM_PROMETHEUS_PORT: String(prometheusPort),
    // A worker killed without a drain hands its horizons on after about twice this.
    SATFARM_HORIZON_LOCK_SEC: '5',
  });
  for (const name of [
    'SATFARM_REDIS_IMAGE',
    'SATFARM_POSTGRES_IMAGE',
    'SATFARM_PROMETHEUS_IMAGE',
    'SATFARM_API_KEYS',
  ])
    delete env[name];
  const up = await fleetCommand('up', '--workers', '1', '--port', String(apiPort), '--timeout', '150');
  expect(up.code, up.stderr).toBe(0);
  upMs = up.ms;
  api = `http://127.0.0.1:${apiPort}`;
}, 900_000);

afterEach(async ({ task }) => {
  if (task.result?.state !== 'fail') return;
  // What the fleet looked like when a test failed, for the CI log.
  const status = await runScript('fleet', ['status', '--name', fleet], env);
  process.stderr.write(`fleet-containers: status after "${task.name}":\n${status.stdout}${status.stderr}`);
  for (const name of (await labelled(fleet)).containers)
    process.stderr.write(`--- ${name}\n${await containerLogs(name)}\n`);
}, 60_000);

afterAll(async () => {
  // Whatever happened above, nothing labelled with the spec's fleets is left.
  await removeLabelled(fleet);
  await removeLabelled(refusedFleet);
  spec.remove();
  expect(await labelled(fleet)).toEqual({ containers: [], networks: [], volumes: [] });
}, 120_000);

describe('npm run fleet, on the real image', () => {
  it('is up: every service running and healthy, the api reachable on loopback, Grafana skipped as optional', async () => {
    process.stderr.write(`fleet-containers: up in ${upMs} ms\n`);
    const status = await fleetCommand('status', '--json');
    expect(status.code, status.stdout + status.stderr).toBe(0);
    const s = JSON.parse(status.stdout) as {
      api: string;
      prometheus: string;
      containers: Array<{ name: string; role: string; state: string; health: string }>;
      skipped: Array<{ service: string }>;
    };
    expect(s.api).toBe(api);
    expect(s.prometheus).toBe(`http://127.0.0.1:${prometheusPort}`);
    expect(s.containers.map((c) => [c.name, c.role, c.state])).toEqual(
      ['redis', 'postgres', 'api', 'worker', 'prometheus'].map((role) => [container(role), role, 'running']),
    );
    const health = Object.fromEntries(s.containers.map((c) => [c.role, c.health]));
    expect(health).toMatchObject({ redis: 'healthy', postgres: 'healthy', api: 'healthy' });
    expect((await http(api, 'GET', '/health')).status).toBe(200);
    // Every container, the network and the volumes carry the fleet's label.
    const made = await labelled(fleet);
    expect(made.networks).toEqual([`${fleet}_default`]);
    expect(made.volumes).toEqual([
      `${fleet}_postgres-data`,
      `${fleet}_prometheus-data`,
      `${fleet}_redis-data`,
    ]);
  });

  it('refuses a second fleet on a port in use, naming it, and starts nothing', async () => {
    const refused = await runScript('fleet', ['up', '--name', refusedFleet, '--port', String(apiPort)], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(new RegExp(`--port: port ${apiPort} on 127\\.0\\.0\\.1 is in use`));
    expect(await labelled(refusedFleet)).toEqual({ containers: [], networks: [], volumes: [] });
    const scaled = await runScript('fleet', ['scale', '2', '--name', refusedFleet], env);
    expect(scaled.code).toBe(2);
    expect(scaled.stderr).toMatch(/no fleet named/);
  });

  it('solves a batch to the proven optima through a killed worker, scaling 1 -> 3 -> 1 and a Redis restart', async () => {
    const jsonl = join(spec.dir, 'cubes.jsonl');
    writeFileSync(
      jsonl,
      cubes
        .map((c) => JSON.stringify({ game: 'cube', instance: { size: 2, scramble: c.scramble } }))
        .join('\n'),
    );
    const progress = await ProgressClient.connect(api);
    try {
      const submitted = await runCli(['batch', 'submit', jsonl, '--api', api, '--json', '--label', fleet]);
      expect(submitted.code, submitted.stderr).toBe(0);
      const { batchId } = JSON.parse(submitted.stdout) as { batchId: string };
      await progress.subscribe({ batchId });
      // Followed to its end by the command line, which also reads the batch every second.
      const watched = runCli(['batch', 'watch', batchId, '--api', api]);
      const { jobIds } = (await http<BatchResource>(api, 'GET', `/v1/batches/${batchId}`)).body;
      expect(jobIds).toHaveLength(cubes.length);
      const notDone = async () =>
        expect((await http<BatchResource>(api, 'GET', `/v1/batches/${batchId}`)).body.done).toBe(false);

      // The only worker dies mid-solve, and stays dead (`podman kill` is a stop by the user):
      // its horizons wait for their lock to lapse, and `scale` replaces it.
      await progress.horizonWhere((e) => e.state === 'running');
      await podman(['kill', '--signal', 'KILL', container('worker')]);

      const three = await fleetCommand('scale', '3');
      expect(three.code, three.stderr).toBe(0);
      expect(three.stderr).toContain(`removed ${container('worker')} (exited)`);
      // The two new workers each solving (no event says which worker runs what, so their
      // processes are looked at), then stopped: SIGTERM reaches the worker through tini and it
      // drains, well inside the 30 s grace period.
      const solving = async (name: string) =>
        (await containerProcesses(name)).some((p) => /kissat|cadical/.test(p));
      await vi.waitFor(
        async () =>
          expect([await solving(container('worker', 2)), await solving(container('worker', 3))]).toEqual([
            true,
            true,
          ]),
        { timeout: 60_000, interval: 100 },
      );
      await notDone();
      const one = await fleetCommand('scale', '1');
      expect(one.code, one.stderr).toBe(0);
      const drains = [...one.stderr.matchAll(/stopped (\S+): drained in \d+ ms \((\d+) running[^\n]*/g)];
      expect(drains.map((d) => d[1]).sort()).toEqual([container('worker', 2), container('worker', 3)]);
      expect(one.ms).toBeLessThan(25_000);
      process.stderr.write(
        `fleet-containers: scale 3 in ${three.ms} ms, scale 1 in ${one.ms} ms; ${drains.map((d) => d[0]).join('; ')}\n`,
      );

      await notDone();
      await podman(['restart', container('redis')]);

      const watch = await watched;
      expect(watch.code, watch.stdout + watch.stderr).toBe(0);

      const batch = (await http<BatchResource>(api, 'GET', `/v1/batches/${batchId}`)).body;
      expect(batch).toMatchObject({ size: cubes.length, done: true, counts: { optimal: cubes.length } });
      expect(batch.jobIds).toEqual(jobIds);
      const results = (await http<string>(api, 'GET', `/v1/batches/${batchId}/results?format=jsonl`)).body
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as JobResource);
      expect(results.map((r) => r.id)).toEqual(jobIds);
      expect(results.map((r) => [r.status, r.horizon, r.verified])).toEqual(
        cubes.map((c) => ['optimal', c.optimum, true]),
      );

      // The store of record in the fleet's PostgreSQL holds each job once.
      const stored = async () =>
        (
          await podman([
            'exec',
            container('postgres'),
            'psql',
            '--username',
            'postgres',
            '--dbname',
            'satfarm',
            '--tuples-only',
            '--no-align',
            '--command',
            `SELECT count(*), count(DISTINCT id) FROM jobs WHERE batch_id = '${batchId}'`,
          ])
        ).trim();
      // Finished jobs are written in groups within about a second.
      await vi.waitFor(async () => expect(await stored()).toBe(`${cubes.length}|${cubes.length}`), {
        timeout: 15_000,
        interval: 500,
      });

      // One worker left, a new one in the killed one's place; no container runs a solver.
      const workers = (await labelled(fleet)).containers.filter((name) => name.includes('-worker-'));
      expect(workers).toEqual([container('worker')]);
      for (const name of (await labelled(fleet)).containers)
        expect(
          (await containerProcesses(name)).filter((p) => /kissat|cadical|minisat/.test(p)),
          name,
        ).toEqual([]);
    } finally {
      progress.close();
    }
  }, 240_000);

  it("has Prometheus scraping the api's metrics", async () => {
    const targets = (
      await http<{
        data: { activeTargets: Array<{ labels: { job: string }; health: string; lastError: string }> };
      }>(`http://127.0.0.1:${prometheusPort}`, 'GET', '/api/v1/targets')
    ).body.data.activeTargets;
    expect(targets.map((t) => [t.labels.job, t.health, t.lastError])).toEqual([['satfarm-api', 'up', '']]);
  });

  it('goes down with its volumes, leaving nothing labelled with its name', async () => {
    const down = await fleetCommand('down', '--volumes');
    expect(down.code, down.stderr).toBe(0);
    process.stderr.write(`fleet-containers: down in ${down.ms} ms\n`);
    expect(await labelled(fleet)).toEqual({ containers: [], networks: [], volumes: [] });
  });
});
