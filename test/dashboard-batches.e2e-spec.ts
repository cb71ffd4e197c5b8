import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { pigeonhole } from '@satfarm/cnf';
import type { JobResource } from '@satfarm/queue';

import { ARTIFACTS, type DashboardBrowser, launchChromium } from './support/dashboard-browser.js';
import { csvRecords } from './support/csv-records.js';
import { type Farm, startFarm } from './support/farm.js';
import { http } from './support/farm-client.js';
import type { ApiProcess } from './support/farm-processes.js';
import { repoRoot } from './support/run-cli.js';

// The dashboard's batches, workers and paged jobs in Debian's headless Chromium, against a real
// farm: an API process with two kissat slots on the test Redis. Screenshots go to
// test/artifacts/dashboard-batches-*.png.
let farm: Farm;
let api: ApiProcess;
let browser: DashboardBrowser;
let page: Page;

type Listing = JobResource & { summary?: string };
interface BatchSummary {
  batchId: string;
  size: number;
  counts: Record<string, number>;
  done: boolean;
}

// PHP(13, 12): kissat needs minutes, so its horizon runs until it is cancelled.
const SLOW_DIMACS = pigeonhole(13, 12).toDimacs();

const SCRAMBLES = [
  'R',
  'U',
  'F',
  'L',
  'B',
  'D',
  "R'",
  "U'",
  "F'",
  "L'",
  "B'",
  "D'",
  'R2',
  'U2',
  'F2',
].flatMap((a) => [a, `${a} U`]);

/** Creates a batch through the API and returns its id and job ids. */
async function createBatch(label: string, jobs: unknown[]): Promise<{ batchId: string; jobIds: string[] }> {
  const created = await http<{ batchId: string; jobIds: string[] }>(api.url, 'POST', '/v1/batches', {
    label,
    jobs,
  });
  expect(created.status).toBe(201);
  return created.body;
}

/** The `data-*` attributes of every element matching `selector`, with the text of `inner` in it. */
function shownData(selector: string, inner?: string): Promise<Array<Record<string, string | undefined>>> {
  const text = inner === undefined ? 'undefined' : `el.querySelector(${JSON.stringify(inner)})?.textContent`;
  return page.evaluate(
    `[...document.querySelectorAll(${JSON.stringify(selector)})].map((el) => ({ ...el.dataset, text: ${text} }))`,
  );
}

beforeAll(async () => {
  [farm, browser] = await Promise.all([
    startFarm({ name: 'dashboard-batches', apis: [{ workerSlots: 2 }], progress: false }),
    launchChromium(),
  ]);
  api = farm.api;
  page = await browser.context.newPage();
  await page.goto(`${api.url}/`);
});

afterAll(async () => {
  await browser?.close();
  await farm?.stop();
});

describe('the dashboard with batches', () => {
  let quick: { batchId: string; jobIds: string[] };

  it('follows a batch to its end with its counts, filters its jobs by status, and downloads its CSV', async () => {
    const towers = readFileSync(join(repoRoot, 'examples/towers-5.txt'), 'utf8');
    const jobs = [
      ...SCRAMBLES.map((scramble) => ({ game: 'cube', instance: { size: 3, scramble } })),
      { game: 'towers', instance: towers },
      { game: 'towers', instance: towers },
    ];
    quick = await createBatch('dashboard quick', jobs);

    await page.click('[data-testid=tab-batches]');
    await page.waitForURL(/#\/batches$/);
    await page.click(`[data-testid=batch-row][data-batch="${quick.batchId}"] a`);
    await page.waitForURL(new RegExp(`#/batches/${quick.batchId}$`));
    const detail = page.locator(`[data-testid=batch-detail][data-batch="${quick.batchId}"]`);
    await detail.waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-batches-running.png'), fullPage: true });
    await page.waitForSelector(`[data-testid=batch-detail][data-batch="${quick.batchId}"][data-done=true]`, {
      timeout: 120_000,
    });

    // The counts shown are the API's, and every job ended as its game says it should.
    const summary = (await http<BatchSummary>(api.url, 'GET', `/v1/batches/${quick.batchId}`)).body;
    expect(summary.counts).toEqual({ optimal: SCRAMBLES.length, satisfiable: 2 });
    await page.waitForSelector(
      `[data-testid=batch-counts] li[data-status=optimal][data-count="${SCRAMBLES.length}"]`,
    );
    const shown = Object.fromEntries(
      (await shownData('[data-testid=batch-counts] li')).map((li): [string, number] => [
        li.status!,
        Number(li.count),
      ]),
    );
    expect(shown).toEqual(summary.counts);
    expect(await page.textContent('[data-testid=batch-over] .value')).toBe(`${jobs.length} / ${jobs.length}`);
    expect(await page.textContent('[data-testid=batch-eta] .value')).toBe('done');
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-batches-done.png'), fullPage: true });

    // Filtered to satisfiable: the two towers and nothing else, each with its instance's summary.
    await page.selectOption('[data-testid=batch-job-filter]', 'satisfiable');
    await page.waitForSelector('[data-testid=batch-jobs][data-state=satisfiable]');
    const rows = (await shownData('[data-testid=batch-job-row]', '.summary-cell')).map((tr) => ({
      id: tr.job,
      status: tr.status,
      summary: tr.text,
    }));
    const towersIds = quick.jobIds.slice(SCRAMBLES.length);
    expect(rows.map((r) => r.id).sort()).toEqual([...towersIds].sort());
    const towersJob = (await http<Listing>(api.url, 'GET', `/v1/jobs/${towersIds[0]}`)).body;
    expect(towersJob.summary).toBeTruthy();
    for (const row of rows) expect(row).toMatchObject({ status: 'satisfiable', summary: towersJob.summary });
    // Back to every status: the first page holds the batch in submission order.
    await page.selectOption('[data-testid=batch-job-filter]', '');
    await page.waitForSelector('[data-testid=batch-jobs][data-state=""]');
    const all = (await shownData('[data-testid=batch-job-row]')).map((tr) => tr.job);
    expect(all).toEqual(quick.jobIds);

    // The CSV link: one record a job under the header, in submission order.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('[data-testid=results-csv]'),
    ]);
    const csv = csvRecords(readFileSync(await download.path(), 'utf8'));
    expect(csv[0]!.slice(0, 4)).toEqual(['id', 'game', 'summary', 'status']);
    expect(csv.slice(1).map((r) => r[0])).toEqual(quick.jobIds);
  });

  it('pages the job list past the 25 newest and shows each instance summary', async () => {
    await page.click('[data-testid=tab-jobs]');
    const first = (await http<{ jobs: Listing[] }>(api.url, 'GET', '/v1/jobs?offset=0&limit=25')).body.jobs;
    const second = (await http<{ jobs: Listing[] }>(api.url, 'GET', '/v1/jobs?offset=25&limit=25')).body.jobs;
    expect(second.length).toBeGreaterThan(0);
    await page.waitForSelector(`[data-testid=job-row][data-job="${first[0]!.id}"]`);
    const firstShown = (await shownData('[data-testid=job-row]', '[data-testid=job-summary]')).map((tr) => [
      tr.job,
      tr.text,
    ]);
    expect(firstShown).toEqual(first.map((j) => [j.id, j.summary]));

    await page.click('[data-testid=job-pager] [data-testid=page-next]');
    await page.waitForSelector('[data-testid=job-pager][data-offset="25"]');
    await page.waitForSelector(`[data-testid=job-row][data-job="${second[0]!.id}"]`);
    const secondShown = (await shownData('[data-testid=job-row]')).map((tr) => tr.job);
    expect(secondShown).toEqual(second.map((j) => j.id));
    expect(await page.textContent('[data-testid=page-range]')).toBe(`26–${25 + second.length}`);
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-batches-jobs-page2.png'), fullPage: true });

    // Filtered to satisfiable: only the towers, on one page.
    await page.selectOption('[data-testid=job-filter]', 'satisfiable');
    await page.waitForSelector('[data-testid=job-row][data-status=satisfiable]');
    const statuses = (await shownData('[data-testid=job-row]')).map((tr) => tr.status);
    expect(statuses).toEqual(['satisfiable', 'satisfiable']);
    await page.selectOption('[data-testid=job-filter]', '');
  });

  it('cancels a batch of slow jobs from its page, once confirmed', async () => {
    const slow = await createBatch(
      'dashboard slow',
      [1, 2, 3].map(() => ({ game: 'cnf', instance: SLOW_DIMACS })),
    );
    await page.click('[data-testid=tab-batches]');
    await page.click(`[data-testid=batch-row][data-batch="${slow.batchId}"] a`);
    await page.waitForSelector(`[data-testid=batch-detail][data-batch="${slow.batchId}"][data-done=false]`);
    await page.waitForSelector('[data-testid=batch-counts] li[data-status=running]');
    await page.click('[data-testid=cancel-batch]');
    // Nothing is cancelled until the confirmation.
    await page.waitForSelector('[data-testid=cancel-confirm]');
    expect((await http<BatchSummary>(api.url, 'GET', `/v1/batches/${slow.batchId}`)).body.done).toBe(false);
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-batches-cancel.png'), fullPage: true });
    await page.click('[data-testid=cancel-batch-yes]');
    await page.waitForSelector(`[data-testid=batch-detail][data-batch="${slow.batchId}"][data-done=true]`);
    await page.waitForSelector('[data-testid=batch-counts] li[data-status=cancelled][data-count="3"]');
    for (const id of slow.jobIds)
      expect((await http<JobResource>(api.url, 'GET', `/v1/jobs/${id}`)).body.status).toBe('cancelled');
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-batches-cancelled.png'), fullPage: true });
  });

  it('shows each worker slot running a horizon of a slow job, then idle', async () => {
    const slow = await createBatch(
      'dashboard workers',
      [1, 2].map(() => ({ game: 'cnf', instance: SLOW_DIMACS })),
    );
    await page.click('[data-testid=tab-workers]');
    await page.waitForURL(/#\/workers$/);
    // The slots of the cancelled batch above may still show until the next refresh: wait for these.
    const expected = JSON.stringify([...slow.jobIds].sort());
    await page.waitForFunction(
      `JSON.stringify([...document.querySelectorAll('[data-testid=slot][data-state=running]')].map((e) => e.dataset.job).sort()) === ${JSON.stringify(expected)}`,
    );
    const running = await shownData('[data-testid=slot][data-state=running]', '.summary-cell');
    expect(running.map((slot) => slot.job).sort()).toEqual([...slow.jobIds].sort());
    const farm = (await http<{ workers: Array<{ slots?: number }> }>(api.url, 'GET', '/v1/farm')).body;
    expect(farm.workers.map((w) => w.slots)).toEqual([2]);
    expect(await page.textContent('[data-testid=worker-slots]')).toBe('2 slots');
    // Each running horizon links to its job and says what the job is.
    const job = (await http<JobResource>(api.url, 'GET', `/v1/jobs/${running[0]!.job}`)).body;
    expect(running[0]!.text).toBe(job.summary);
    expect(await page.getAttribute(`[data-testid=slot][data-job="${running[0]!.job}"] a`, 'href')).toBe(
      `#/jobs/${running[0]!.job}`,
    );
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-batches-workers.png'), fullPage: true });

    expect((await http(api.url, 'DELETE', `/v1/batches/${slow.batchId}`)).status).toBe(200);
    await page.waitForFunction(
      `document.querySelectorAll('[data-testid=slot][data-state=idle]').length === 2`,
    );
  });
});
