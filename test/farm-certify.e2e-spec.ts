import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { JobResource, JobStatus } from '@satfarm/queue';

import { ARTIFACTS, launchChromium } from './support/dashboard-browser.js';
import { type Farm, startFarm } from './support/farm.js';
import { metricValue } from './support/farm-client.js';
import type { FarmProcess } from './support/farm-processes.js';
import { descendants, isAlive } from './support/process-table.js';
import { waitUntil, within } from './support/waits.js';

/**
 * Certified jobs (docs/solvers.md#certified-answers, docs/farm.md#certified-jobs) through real
 * farm processes: an API and a worker of the build on the test Redis, kissat and drat-trim. The
 * API certifies by default (SATFARM_CERTIFY=on): a job that says `certify: false` is not. The
 * worker's temporary directory is the spec's own (its TMPDIR), so that the runs' work
 * directories, formulas and proofs, can be seen to go. A lying kissat, first in the worker's PATH
 * (the solver's binary is looked up there), answers UNSAT to everything.
 */
let farm: Farm;
let worker: FarmProcess;
/** The TMPDIR of the worker running now. */
let workerTmp: string;

/** The 2x2 cube of the engine's certify spec: optimum 5, so horizon 4's UNSAT is the decisive one. */
const CUBE = { size: 2, scramble: "R U F' R2 U'" };

beforeAll(async () => {
  farm = await startFarm({ name: 'certify', apis: [{ env: { SATFARM_CERTIFY: 'on' } }] });
  workerTmp = join(farm.dir, 'tmp-honest');
  mkdirSync(workerTmp);
  worker = await farm.startWorker({ slots: 2, env: { TMPDIR: workerTmp } });
});

afterAll(async () => {
  await farm?.stop();
});

async function submit(game: string, instance: unknown, options: object): Promise<string> {
  const { status, body } = await farm.http<{ id: string }>('POST', '/v1/jobs', { game, instance, options });
  expect(status, JSON.stringify(body)).toBe(201);
  return body.id;
}

/** Job `id` once it is over (its final progress event, or at once if it ended before). */
async function ended(id: string, timeoutMs = 60_000): Promise<JobResource> {
  const over = async (): Promise<unknown> => {
    const ack = await farm.progress.subscribe({ jobId: id });
    if (ack.job?.finishedAt != null) return ack.job;
    return farm.progress.jobEnd(id);
  };
  await within(over(), { what: `job ${id} to end`, timeoutMs });
  return (await farm.http<JobResource>('GET', `/v1/jobs/${id}`)).body;
}

async function proofsCounted(result: string): Promise<number> {
  return metricValue((await farm.http<string>('GET', '/metrics')).body, 'satfarm_proofs_total', { result });
}

/** The solver and checker processes anywhere on the machine whose command line names `dir`. */
function processesNaming(dir: string): string[] {
  const table = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return table.split('\n').filter((line) => line.includes(dir) && !line.includes(' ps '));
}

/** Waits until the worker runs no kissat or drat-trim, none naming its TMPDIR is left, nor any file there. */
async function expectNothingLeft(): Promise<void> {
  const left = () => ({
    under: descendants(worker.pid).filter((p) => p.command === 'kissat' || p.command === 'drat-trim'),
    anywhere: processesNaming(workerTmp),
    files: readdirSync(workerTmp),
  });
  await waitUntil(
    () => {
      const now = left();
      return now.under.length === 0 && now.anywhere.length === 0 && now.files.length === 0;
    },
    { what: 'no solver, checker or work file left', timeoutMs: 10_000 },
  ).catch(() => expect(left()).toEqual({ under: [], anywhere: [], files: [] }));
}

let certifiedCube: string;
let plainCube: string;
let liedTo: string;

describe('a certified job on a farm', () => {
  it('ends optimal, certified, with the decisive horizon’s proof verified and counted', async () => {
    const verifiedBefore = await proofsCounted('verified');
    [certifiedCube, plainCube] = await Promise.all([
      submit('cube', CUBE, { certify: true }),
      submit('cube', CUBE, { certify: false }),
    ]);
    const [certified, plain] = await Promise.all([ended(certifiedCube), ended(plainCube)]);

    expect(certified).toMatchObject({ status: 'optimal', horizon: 5, certified: true });
    const decisive = certified.horizons.find((h) => h.t === 4);
    expect(decisive).toMatchObject({ result: 'unsat', proof: { result: 'verified' } });
    expect(decisive!.proof!.bytes).toBeGreaterThan(0);
    expect(decisive!.proof!.checkMs).toBeGreaterThanOrEqual(0);
    // Every UNSAT answer of the job had its proof checked, not the decisive one alone.
    for (const line of certified.horizons.filter((h) => h.result === 'unsat'))
      expect(line.proof?.result, `horizon ${line.t}`).toBe('verified');
    const verified = certified.horizons.filter((h) => h.proof?.result === 'verified').length;
    expect(await proofsCounted('verified')).toBeGreaterThanOrEqual(verifiedBefore + verified);

    expect(plain).toMatchObject({ status: 'optimal', horizon: 5 });
    expect(plain.certified ?? false).toBe(false);
    expect(plain.horizons.filter((h) => h.proof !== undefined)).toEqual([]);
    await expectNothingLeft();
  });

  it('certifies by the farm’s default, and refuses what it cannot certify with 400', async () => {
    const id = await submit('staircase', { optimum: 1 }, {});
    const job = await ended(id);
    expect(job).toMatchObject({ status: 'optimal', horizon: 1, certified: true });
    expect(job.horizons.find((h) => h.t === 0)).toMatchObject({
      result: 'unsat',
      proof: { result: 'verified' },
    });

    // A puzzle's uniqueness rests on the second solve's UNSAT answer: its proof is checked too.
    const verifiedBefore = await proofsCounted('verified');
    const towers = await ended(await submit('towers', '5://3/3///3/1//////2/2///4//,k3m', { unique: true }));
    expect(towers).toMatchObject({
      status: 'satisfiable',
      unique: true,
      certified: true,
      uniqueProof: { result: 'verified' },
    });
    expect(towers.uniqueProof!.bytes).toBeGreaterThan(0);
    expect(await proofsCounted('verified')).toBeGreaterThanOrEqual(verifiedBefore + 1);

    const refused: Array<[object, string]> = [
      [{ solver: 'minisat' }, 'options.solver'],
      [{ certify: true, solver: 'minisat' }, 'options.solver'],
      [{ split: 5 }, 'options.split'],
      [{ certify: false, proofLimitMiB: 5 }, 'options.proofLimitMiB'],
    ];
    for (const [options, field] of refused) {
      const answer = await farm.http<{ field: string }>('POST', '/v1/jobs', {
        game: 'cube',
        instance: CUBE,
        options,
      });
      expect({ options, status: answer.status, field: answer.body.field }).toEqual({
        options,
        status: 400,
        field,
      });
    }
  });

  it('checks the proof of whichever run of a portfolio race answers', async () => {
    // Horizon 0 (PHP(8, 7)) races on both slots: the job's own run and a sibling, each certified.
    const id = await submit('staircase', { optimum: 1, holes: { 0: 7 } }, { portfolio: 2, parallelism: 1 });
    const job = await ended(id);
    expect(job).toMatchObject({ status: 'optimal', horizon: 1, certified: true });
    const raced = job.horizons.find((h) => h.t === 0)!;
    expect(raced).toMatchObject({ result: 'unsat', proof: { result: 'verified' } });
    expect(raced.config).toMatch(/^kissat\/default\/\d$/);
    expect(raced.proof!.bytes).toBeGreaterThan(0);
    await expectNothingLeft();
  });

  it('gives unknown/proof-limit when a proof reaches the job’s cap, and counts it', async () => {
    // Horizon 0 is PHP(10, 9): its proof grows past 1 MiB within a few seconds.
    const limitBefore = await proofsCounted('limit');
    const id = await submit('staircase', { optimum: 1, holes: { 0: 9 } }, { proofLimitMiB: 1 });
    const job = await ended(id);
    expect(job).toMatchObject({ status: 'satisfiable', horizon: 1, certified: false });
    expect(job.horizons.find((h) => h.t === 0)).toMatchObject({
      result: 'unknown',
      reason: 'proof-limit',
      proof: { bytes: 1024 * 1024, result: 'limit' },
    });
    expect(await proofsCounted('limit')).toBe(limitBefore + 1);
    await expectNothingLeft();
  });

  it('stops drat-trim and removes the proof when the job is cancelled during the check', async () => {
    // Horizon 0 is PHP(9, 8): a second or more for kissat, then about as long for drat-trim.
    const id = await submit('staircase', { optimum: 1, holes: { 0: 8 } }, {});
    const checker = await waitUntil(
      () => descendants(worker.pid).find((p) => p.command === 'drat-trim')?.pid,
      { what: 'drat-trim checking horizon 0', timeoutMs: 60_000 },
    );
    // A running certified job is not certified yet.
    expect((await farm.http<JobResource>('GET', `/v1/jobs/${id}`)).body).toMatchObject({
      status: 'running',
      certified: false,
    });
    expect((await farm.http('DELETE', `/v1/jobs/${id}`)).status).toBeLessThan(300);
    const job = await ended(id);
    expect(job.status).toBe('cancelled');
    expect(job.certified ?? false).toBe(false);
    await expectNothingLeft();
    expect(isAlive(checker)).toBe(false);
  });

  it('catches a worker’s lying solver: no false answer, the horizons unknown/proof-rejected, counted', async () => {
    // The liar says UNSATISFIABLE to every formula and writes an empty proof: its second path
    // argument (`kissat [options] <formula> <proof>`); uncertified, it reads the formula on stdin
    // and its last argument may be a preset (`--sat`), no file to write.
    const bin = join(farm.dir, 'liar-bin');
    mkdirSync(bin);
    writeFileSync(
      join(bin, 'kissat'),
      '#!/bin/sh\n[ "$1" = --version ] && { echo 4.0.2; exit 0; }\nfiles=0\nfor a; do case $a in -*) ;; *) files=$((files + 1)); proof=$a ;; esac; done\nif [ $files -ge 2 ]; then : > "$proof"; elif [ $files -eq 0 ]; then cat > /dev/null; fi\necho "s UNSATISFIABLE"\nexit 20\n',
    );
    chmodSync(join(bin, 'kissat'), 0o755);
    await farm.stopWorkers();
    workerTmp = join(farm.dir, 'tmp-liar');
    mkdirSync(workerTmp);
    worker = await farm.startWorker({
      slots: 2,
      env: { TMPDIR: workerTmp, PATH: `${bin}:${process.env.PATH ?? ''}` },
    });

    // Horizon 1 is PHP(6, 5), horizons 2 and 3 are satisfiable: every UNSAT answer is a lie.
    const staircase = { optimum: 2, lower: 1, holes: { 1: 5 } };
    // The cube with a given plan of 7 moves (the optimum's 5 and U2 U2): below it, only lies.
    const cubeOptions = { plan: "U R2 F U' R' U2 U2", quickPlan: false };
    const rejectedBefore = await proofsCounted('rejected');
    const ids = await Promise.all([
      submit('staircase', staircase, { maxHorizon: 3, certify: false }),
      submit('staircase', staircase, { maxHorizon: 3, certify: true }),
      submit('cube', CUBE, { ...cubeOptions, certify: false }),
      submit('cube', CUBE, { ...cubeOptions, certify: true }),
    ]);
    liedTo = ids[1];
    const [fooled, caught, fooledCube, caughtCube] = (await Promise.all(ids.map((id) => ended(id)))) as [
      JobResource,
      JobResource,
      JobResource,
      JobResource,
    ];

    // Without a proof the lie is the answer: no plan at all, or the given plan as the optimum.
    expect(fooled.status).toBe('unsatisfiable');
    expect(fooledCube).toMatchObject({ status: 'optimal', horizon: 7 });
    // With one, no horizon is proven UNSAT by the lie, so no answer rests on it.
    expect(caughtCube).toMatchObject({ status: 'satisfiable', horizon: 7, certified: false });
    expect(caughtCube.horizons.find((h) => h.t === 6)).toMatchObject({
      result: 'unknown',
      reason: 'proof-rejected',
      proof: { result: 'rejected' },
    });
    // An UNSAT answer stands only on a verified proof (a horizon whose formula unit propagation
    // refutes has one in the liar's empty file).
    for (const line of caughtCube.horizons.filter((h) => h.result === 'unsat'))
      expect(line.proof?.result, `horizon ${line.t}`).toBe('verified');
    expect(caughtCube.bounds.lower).toBeLessThan(7);
    const falseAnswers: JobStatus[] = ['optimal', 'unsatisfiable'];
    expect(falseAnswers).not.toContain(caught.status);
    expect(caught).toMatchObject({ status: 'unknown', certified: false });
    // The sweep starts below the game's bound, which it does not trust: horizon 0 is PHP(2, 1),
    // which unit propagation refutes, so the liar's empty proof is a proof there.
    expect(caught.horizons.map((h) => h.t).sort()).toEqual([0, 1, 2, 3]);
    expect(caught.horizons.find((h) => h.t === 0)).toMatchObject({
      result: 'unsat',
      proof: { result: 'verified' },
    });
    for (const line of caught.horizons.filter((h) => h.t > 0))
      expect(line, `horizon ${line.t}`).toMatchObject({
        result: 'unknown',
        reason: 'proof-rejected',
        proof: { result: 'rejected' },
      });
    const rejected = [...caught.horizons, ...caughtCube.horizons].filter(
      (h) => h.proof?.result === 'rejected',
    );
    expect(await proofsCounted('rejected')).toBeGreaterThanOrEqual(rejectedBefore + rejected.length);
    await expectNothingLeft();
  });

  it('shows the certified badge and the proofs’ marks on the dashboard', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.context.newPage();
      const open = async (id: string, status: string) => {
        await page.goto(`${farm.api.url}/#/jobs/${id}`);
        await page.waitForSelector(`[data-testid=job-detail][data-job="${id}"][data-drawn=${status}]`);
      };

      await open(certifiedCube, 'optimal');
      expect(await page.textContent('[data-testid=job-certified]')).toBe('certified');
      const mark = page.locator('[data-testid=horizon-row][data-t="4"] [data-testid=horizon-proof]');
      expect(await mark.getAttribute('data-proof')).toBe('verified');
      expect(await mark.textContent()).toContain('proof checked');
      await page.screenshot({ path: join(ARTIFACTS, 'dashboard-certified.png'), fullPage: true });

      await open(plainCube, 'optimal');
      expect(await page.locator('[data-testid=job-certified]').count()).toBe(0);
      expect(await page.locator('[data-testid=horizon-proof]').count()).toBe(0);

      await open(liedTo, 'unknown');
      expect(await page.locator('[data-testid=job-certified]').count()).toBe(0);
      expect(
        await page.getAttribute(
          '[data-testid=horizon-row][data-t="0"] [data-testid=horizon-proof]',
          'data-proof',
        ),
      ).toBe('verified');
      for (const t of [1, 2, 3]) {
        const row = `[data-testid=horizon-row][data-t="${t}"]`;
        expect(await page.getAttribute(`${row} [data-testid=horizon-proof]`, 'data-proof')).toBe('rejected');
        expect(await page.textContent(`${row} [data-testid=horizon-reason]`)).toMatch(
          /(^| · )proof-rejected$/,
        );
      }
      await page.screenshot({ path: join(ARTIFACTS, 'dashboard-proof-rejected.png'), fullPage: true });
    } finally {
      await browser.close();
    }
  });
});
