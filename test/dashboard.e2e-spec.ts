import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { pigeonhole } from '@satfarm/cnf';
import type { JobResource } from '@satfarm/queue';

import { ARTIFACTS, type DashboardBrowser, launchChromium } from './support/dashboard-browser.js';
import { type Farm, startFarm } from './support/farm.js';
import { http } from './support/farm-client.js';
import type { ApiProcess } from './support/farm-processes.js';
import { repoRoot } from './support/run-cli.js';

// The dashboard in Debian's headless Chromium, against a real farm: an API process with two
// kissat slots on the test Redis. Screenshots go to test/artifacts/dashboard-*.png.
let farm: Farm;
let api: ApiProcess;
let browser: DashboardBrowser;
let page: Page;

/** Every `t:state` a horizon row has shown since the page loaded, in order (recorded in the page). */
const RECORD_HORIZON_STATES = `
  window.__horizonStates = [];
  new MutationObserver(() => {
    for (const row of document.querySelectorAll('[data-testid=horizon-row]')) {
      const seen = row.dataset.t + ':' + row.dataset.state;
      if (!window.__horizonStates.includes(seen)) window.__horizonStates.push(seen);
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state'] });
`;

const FINAL = ['optimal', 'satisfiable', 'unsatisfiable', 'unknown', 'failed', 'cancelled'];

/** Picks a game, fills the instance (or the game's example), submits, and returns the job id. */
async function submit(game: string, instance?: string): Promise<string> {
  const before = page.url();
  await page.selectOption('select[name=game]', game);
  if (instance === undefined) await page.click('form.submit button:text("example")');
  else await page.fill('textarea[name=instance]', instance);
  await page.click('[data-testid=submit-job]');
  // The page opens the new job (the URL may show the previous one until then).
  await page.waitForURL((url) => url.href !== before && /#\/jobs\/.+/.test(url.href));
  return /#\/jobs\/(.+)$/.exec(page.url())![1]!;
}

/** Waits until the job view shows a final status and returns it, with the job as the API has it. */
async function finished(jobId: string): Promise<{ shown: string; job: JobResource }> {
  // The view of this job (the previous job's view may still be up for a moment), drawn from the
  // final resource (the `job` event comes a moment before the drawing of the answer).
  const view = page.locator(`[data-testid=job-detail][data-job="${jobId}"]`);
  await page.waitForSelector(
    FINAL.map((s) => `[data-testid=job-detail][data-job="${jobId}"][data-drawn=${s}]`).join(', '),
    { timeout: 90_000 },
  );
  const shown = (await view.getAttribute('data-status'))!;
  const job = (await http<JobResource>(api.url, 'GET', `/v1/jobs/${jobId}`)).body;
  return { shown, job };
}

function inPage<T>(expression: string): Promise<T> {
  return page.evaluate<T>(expression);
}

beforeAll(async () => {
  // Formulas up to 16 MiB: every other job here stays far below it. The cube's small databases
  // alone bound its sweeps (no tables, no search), so a sweep has UNSAT horizons below its optimum to watch.
  [farm, browser] = await Promise.all([
    startFarm({
      name: 'dashboard',
      apis: [{ workerSlots: 2, env: { SATFARM_FORMULA_MEMORY_MIB: '16', SATFARM_PDB_DIR: 'off' } }],
      progress: false,
    }),
    launchChromium(),
  ]);
  api = farm.api;
  await browser.context.addInitScript({ content: RECORD_HORIZON_STATES });
  page = await browser.context.newPage();
  await page.goto(`${api.url}/`);
});

afterAll(async () => {
  await browser?.close();
  await farm?.stop();
});

describe('the dashboard', () => {
  it('is served at / next to the API, shows the farm at a glance, and shows the 400 naming the field', async () => {
    expect((await http(api.url, 'GET', '/health')).status).toBe(200);
    expect((await http(api.url, 'GET', '/docs')).status).toBe(200);
    await page.waitForSelector('[data-testid=workers] .value:text-is("1")');
    await page.waitForSelector('[data-testid=queue-depth] .value:text-is("0")');

    await page.selectOption('select[name=game]', 'cube');
    await page.fill('textarea[name=instance]', '{"size": 4, "scramble": "R"}');
    await page.click('[data-testid=submit-job]');
    const error = page.locator('[data-testid=submit-error]');
    await error.waitFor();
    expect(await error.textContent()).toMatch(/^instance\.size: must be 2 or 3/);
    expect(await page.getAttribute('textarea[name=instance]', 'class')).toContain('invalid');

    await page.fill('textarea[name=instance]', "R U2 F'");
    await page.fill('input[name=maxHorizon]', '-1');
    await page.click('[data-testid=submit-job]');
    await page.waitForSelector('[data-testid=submit-error][data-field="options.maxHorizon"]');
    expect(await error.textContent()).toMatch(/^options\.maxHorizon: /);
    await page.fill('input[name=maxHorizon]', '');
    expect(page.url()).not.toMatch(/#\/jobs\//);
  });

  it('follows a hard formula live (running, conflicts a second) and cancels it from the page', async () => {
    // PHP(13, 12): kissat needs minutes, so the horizon stays running until the page cancels it.
    const jobId = await submit('cnf', pigeonhole(13, 12).toDimacs());
    const row = page.locator('[data-testid=horizon-row][data-t="0"]');
    await page.waitForSelector('[data-testid=horizon-row][data-t="0"][data-state=running]');
    // The rate comes from the solver's own reports, relayed live: a number, not a placeholder.
    await page.waitForFunction(
      `/^[0-9.]+k?M?$/.test(document.querySelector('[data-testid=horizon-row][data-t="0"] [data-testid=conflict-rate]')?.textContent ?? '')`,
    );
    await page.waitForSelector('[data-testid=active-solvers] .value:text-is("1")');
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-running.png'), fullPage: true });

    await page.click('[data-testid=cancel-job]');
    const { shown, job } = await finished(jobId);
    expect(shown).toBe('cancelled');
    expect(job.status).toBe('cancelled');
    await row.and(page.locator('[data-state=cancelled]')).waitFor();
  });

  it("says why a horizon has no answer: a formula past the workers' memory ends unknown, formula-limit", async () => {
    // 100 x 100 cells at horizons 197 and 198: over 40 MiB of literals each, past the 16 MiB limit.
    const snake = { width: 100, height: 100, length: 3, start: [0, 0], apples: [[99, 99]] };
    await page.selectOption('select[name=game]', 'snake');
    await page.fill('input[name=maxHorizon]', '198');
    const jobId = await submit('snake', JSON.stringify(snake));
    await page.fill('input[name=maxHorizon]', '');
    const { shown, job } = await finished(jobId);
    expect(shown).toBe('unknown');
    expect(job.horizons.map((h) => [h.t, h.result, h.reason])).toEqual([
      [197, 'unknown', 'formula-limit'],
      [198, 'unknown', 'formula-limit'],
    ]);
    const reason = page.locator(
      '[data-testid=horizon-row][data-t="198"][data-state=unknown] [data-testid=horizon-reason]',
    );
    await reason.waitFor();
    expect(await reason.textContent()).toBe('formula-limit');
  });

  it('watches a cube sweep: horizons go from running to UNSAT and SAT, the bounds meet, the net plays back to solved', async () => {
    const jobId = await submit('cube', readFileSync(join(repoRoot, 'examples/cube-3x3.json'), 'utf8'));
    const { shown, job } = await finished(jobId);
    expect(shown).toBe('optimal');
    expect(job.status).toBe('optimal');
    const optimum = job.horizon!;

    // Every horizon the farm ran is on the page in its final state, and the optimum is backed by
    // the UNSAT just below it.
    for (const h of job.horizons)
      await page.waitForSelector(`[data-testid=horizon-row][data-t="${h.t}"][data-state=${h.result}]`);
    expect(await page.getAttribute(`[data-testid=horizon-row][data-t="${optimum - 1}"]`, 'data-state')).toBe(
      'unsat',
    );
    // That proof's row shows what its solver process used, as the worker's spawn host measured it.
    const proofRow = await page.textContent(`[data-testid=horizon-row][data-t="${optimum - 1}"]`);
    expect(proofRow).toMatch(/ · [\d.]+ (ms|s) CPU · [\d.]+ [MG]iB peak/);
    // The page saw the sweep move: the horizon that answered SAT showed as running first.
    const sat = job.horizons.find((h) => h.result === 'sat')!.t;
    const states = await inPage<string[]>('window.__horizonStates');
    expect(states.indexOf(`${sat}:running`)).toBeGreaterThanOrEqual(0);
    expect(states.indexOf(`${sat}:running`)).toBeLessThan(states.indexOf(`${sat}:sat`));

    const bounds = page.locator('[data-testid=bounds]');
    expect(await bounds.getAttribute('data-lower')).toBe(String(optimum));
    expect(await bounds.getAttribute('data-upper')).toBe(String(optimum));
    expect(await page.textContent('[data-testid=plan-length]')).toBe(String(optimum));

    // The net as drawn: scrambled at the start, every face one colour (six colours) at the end.
    const net = page.locator('[data-testid=cube-net]');
    expect(await net.getAttribute('data-frames')).toBe(String(optimum + 1));
    const faceFills = `Object.fromEntries([...document.querySelectorAll('[data-testid=cube-net] g[data-face]')]
      .map((g) => [g.dataset.face, [...g.querySelectorAll('rect')].map((r) => r.getAttribute('fill'))]))`;
    await page.click('[data-testid=cube-net] [data-testid=frame-first]');
    const start = await inPage<Record<string, string[]>>(faceFills);
    expect(Object.values(start).some((f) => new Set(f).size > 1)).toBe(true);
    await page.click('[data-testid=cube-net] [data-testid=frame-last]');
    const end = await inPage<Record<string, string[]>>(faceFills);
    expect(Object.keys(end).sort()).toEqual(['B', 'D', 'F', 'L', 'R', 'U']);
    for (const fills of Object.values(end)) expect(new Set(fills).size).toBe(1);
    expect(new Set(Object.values(end).map((f) => f[0])).size).toBe(6);
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-cube.png'), fullPage: true });
    await page.waitForSelector(`[data-testid=job-row][data-job="${jobId}"][data-status=optimal]`);
  });

  it("lays out a cube job's drawing clear of its horizons table at 1280, 1400 and 1920 px", async () => {
    const jobId = await submit('cube', readFileSync(join(repoRoot, 'examples/cube-3x3.json'), 'utf8'));
    await finished(jobId);
    try {
      for (const width of [1280, 1400, 1920]) {
        await page.setViewportSize({ width, height: 950 });
        const table = (await page.locator('[data-testid=horizon-timeline]').boundingBox())!;
        const drawing = (await page.locator('[data-testid=cube-net]').boundingBox())!;
        const apart =
          table.x + table.width <= drawing.x ||
          drawing.x + drawing.width <= table.x ||
          table.y + table.height <= drawing.y ||
          drawing.y + drawing.height <= table.y;
        expect({ width, table, drawing, apart }).toMatchObject({ apart: true });
        await page.screenshot({ path: join(ARTIFACTS, `dashboard-cube-${width}.png`), fullPage: true });
      }
    } finally {
      await page.setViewportSize({ width: 1400, height: 950 });
    }
  });

  it('animates the snake step by step until every apple is eaten', async () => {
    const jobId = await submit('snake');
    const { job } = await finished(jobId);
    expect(job.status).toBe('optimal');
    const board = page.locator('[data-testid=snake-board]');
    expect(await board.getAttribute('data-frames')).toBe(String(job.horizon! + 1));
    // It plays by itself: the frame shown moves on.
    await page.waitForFunction(
      `Number(document.querySelector('[data-testid=snake-board]')?.dataset.frame) >= 3`,
    );
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-snake.png'), fullPage: true });
    await page.click('[data-testid=snake-board] [data-testid=frame-last]');
    expect(await board.getAttribute('data-apples')).toBe('0');
    expect(await page.locator('[data-testid=snake-board] [data-body=head]').count()).toBe(1);
  });

  it("draws a snake board's walls and its spawn chain, the chain's cells going as apples are eaten", async () => {
    // A wall down the middle; eating the apple spawns one at (4, 0), eating that one at (4, 3).
    const snake = {
      width: 5,
      height: 4,
      length: 2,
      body: [
        [0, 1],
        [0, 0],
      ],
      walls: [
        [2, 0],
        [2, 1],
        [2, 2],
      ],
      apples: [[1, 3]],
      spawn: [
        [4, 0],
        [4, 3],
      ],
      order: 'any',
    };
    const jobId = await submit('snake', JSON.stringify(snake));
    const { job } = await finished(jobId);
    expect(job.status).toBe('optimal');
    const board = page.locator('[data-testid=snake-board]');
    await page.click('[data-testid=snake-board] [data-testid=frame-first]');
    expect(await board.getAttribute('data-walls')).toBe('3');
    const walls = await inPage<
      string[]
    >(`[...document.querySelectorAll('[data-testid=snake-board] rect[data-wall]')]
      .map((r) => r.getAttribute('x') / 30 + ',' + r.getAttribute('y') / 30)`);
    expect(walls).toEqual(['2,0', '2,1', '2,2']);
    // At the start both chain cells wait as rings, the next one numbered 1.
    expect(await board.getAttribute('data-spawn')).toBe('2');
    const rings = `[...document.querySelectorAll('[data-testid=snake-board] g[data-spawn] circle')]
      .map((c) => (c.getAttribute('cx') - 15) / 30 + ',' + (c.getAttribute('cy') - 15) / 30)`;
    expect(await inPage<string[]>(rings)).toEqual(['4,0', '4,3']);
    expect(await page.textContent('[data-testid=snake-board] g[data-spawn="0"] text')).toBe('1');
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-snake-walls.png'), fullPage: true });
    // At the end: every apple eaten, the chain spawned, the snake grown by three.
    await page.click('[data-testid=snake-board] [data-testid=frame-last]');
    expect(await board.getAttribute('data-spawn')).toBe('0');
    expect(await board.getAttribute('data-apples')).toBe('0');
    expect(await inPage<string[]>(rings)).toEqual([]);
    expect(await page.locator('[data-testid=snake-board] rect[data-body]').count()).toBe(5);
  });

  it('draws the Hex-a-Hop path over the level until no green tile is left', async () => {
    const jobId = await submit('hexahop');
    const { job } = await finished(jobId);
    expect(job.status).toBe('optimal');
    const map = page.locator('[data-testid=hexahop-map]');
    expect(Number(await map.getAttribute('data-green'))).toBeGreaterThan(0);
    await page.click('[data-testid=hexahop-map] [data-testid=frame-last]');
    expect(await map.getAttribute('data-green')).toBe('0');
    const path = await page.getAttribute('[data-testid=hexahop-map] polyline', 'points');
    expect(path!.trim().split(/\s+/)).toHaveLength(job.horizon! + 1);
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-hexahop.png'), fullPage: true });
  });

  it('draws the Towers and Singles answers as grids that obey the rules', async () => {
    const cells = (testId: string) =>
      inPage<
        Array<Array<{ text: string; black: boolean }>>
      >(`[...document.querySelectorAll('[data-testid=${testId}] tr')]
        .map((tr) => [...tr.querySelectorAll('td[data-cell]')].map((td) => ({ text: td.textContent, black: td.dataset.black === 'true' })))
        .filter((row) => row.length > 0)`);
    const distinct = (values: string[]): boolean => new Set(values).size === values.length;

    const towers = await submit('towers', readFileSync(join(repoRoot, 'examples/towers-5.txt'), 'utf8'));
    expect((await finished(towers)).job.status).toBe('satisfiable');
    await page.waitForSelector('[data-testid=towers-grid][data-solved=true]');
    const heights = (await cells('towers-grid')).map((row) => row.map((c) => c.text));
    expect(heights).toHaveLength(5);
    for (let i = 0; i < 5; i++) {
      expect([...heights[i]!].sort()).toEqual(['1', '2', '3', '4', '5']);
      expect([...heights.map((row) => row[i]!)].sort()).toEqual(['1', '2', '3', '4', '5']);
    }
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-towers.png'), fullPage: true });

    const singles = await submit('singles');
    expect((await finished(singles)).job.status).toBe('satisfiable');
    await page.waitForSelector('[data-testid=singles-grid][data-solved=true]');
    const grid = await cells('singles-grid');
    expect(grid.flat().some((c) => c.black)).toBe(true);
    for (let r = 0; r < grid.length; r++) {
      for (let c = 0; c < grid[r]!.length; c++) {
        // Shaded cells never touch side by side.
        if (grid[r]![c]!.black) expect(grid[r]![c + 1]?.black || grid[r + 1]?.[c]?.black).toBeFalsy();
      }
      expect(distinct(grid[r]!.filter((x) => !x.black).map((x) => x.text))).toBe(true);
      expect(
        distinct(
          grid
            .map((row) => row[r]!)
            .filter((x) => !x.black)
            .map((x) => x.text),
        ),
      ).toBe(true);
    }
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-singles.png'), fullPage: true });
  });

  it('draws the second solution of an ambiguous puzzle beside the first, as the API holds both', async () => {
    const before = page.url();
    await page.selectOption('select[name=game]', 'singles');
    // A row of 1 2 1 has two shadings: either 1 is shaded, never both.
    await page.fill('textarea[name=instance]', '{"grid": [[1, 2, 1]]}');
    await page.check('input[name=unique]');
    await page.click('[data-testid=submit-job]');
    await page.waitForURL((url) => url.href !== before && /#\/jobs\/.+/.test(url.href));
    const jobId = /#\/jobs\/(.+)$/.exec(page.url())![1]!;
    await page.uncheck('input[name=unique]');
    const { job } = await finished(jobId);
    expect(job).toMatchObject({ status: 'satisfiable', unique: false });
    await page.waitForSelector('[data-testid=second-solution] [data-testid=singles-grid][data-solved=true]');
    const rows = await inPage<string[]>(`[...document.querySelectorAll('[data-testid=singles-grid]')]
      .map((grid) => [...grid.querySelectorAll('td[data-cell]')]
        .map((td) => (td.dataset.black === 'true' ? '#' : td.textContent)).join(' '))`);
    // The answer first, the other below it: both shadings, one each.
    expect(rows).toHaveLength(2);
    expect([...rows].sort()).toEqual(['# 2 1', '1 2 #']);
    expect(job.secondRender).toBeDefined();
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-singles-second.png'), fullPage: true });
  });
});
