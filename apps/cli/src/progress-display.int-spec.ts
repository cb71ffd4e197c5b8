import { describe, expect, it } from 'vitest';

import { type SolveEvent, solveParsed } from '@satfarm/engine';
import { pigeonLadderGame } from '@satfarm/engine/testing';

import { SweepProgressView } from './progress-display.js';

/** Solves a pigeon ladder with real kissat, feeding every event to a fresh view; returns the view's states. */
async function viewedSolve(
  pigeons: number,
  minHorizon?: number,
): Promise<{ view: SweepProgressView; totals: number[]; values: number[] }> {
  const view = new SweepProgressView();
  const totals: number[] = [];
  const values: number[] = [];
  await solveParsed(
    pigeonLadderGame,
    { pigeons },
    {
      parallelism: 2,
      policy: 'consecutive',
      ...(minHorizon === undefined ? {} : { minHorizon }),
      onEvent: (event) => {
        view.handle(event);
        totals.push(view.total);
        values.push(view.value);
      },
    },
  );
  return { view, totals, values };
}

describe('the CLI progress view of a sweep', () => {
  it('spans the game bound to the largest horizon and ends full at the optimum', async () => {
    const { view, totals, values } = await viewedSolve(5);
    const max = pigeonLadderGame.defaultMaxHorizon({ pigeons: 5 });
    expect(new Set(totals)).toEqual(new Set([max + 1]));
    expect(values.at(-1)).toBe(view.total);
    expect(values.every((v, i) => i === 0 || v >= values[i - 1]!)).toBe(true);
    expect(view.payload).toMatchObject({ lower: '5', upper: '5' });
  });

  it('spans from the start that --min-horizon opened, and shows only the proven lower bound', async () => {
    const { view, totals, values } = await viewedSolve(7, 7);
    const max = pigeonLadderGame.defaultMaxHorizon({ pigeons: 7 });
    // The window opens at 6: the bar spans 6..max, not the game's bound 0..max.
    expect(totals[0]).toBe(max - 6 + 1);
    expect(values[0]).toBe(0);
    expect(values.at(-1)).toBe(view.total);
    expect(view.payload).toMatchObject({ lower: '7', upper: '7' });
  });

  it('widens back to the game bound when a plan under the start reopens the horizons below', () => {
    const view = new SweepProgressView();
    const events: SolveEvent[] = [
      { type: 'sweep', lower: 2, max: 20, policy: 'consecutive', start: 9 },
      { type: 'horizon', t: 9, state: 'sat', ms: 5 },
      { type: 'bounds', lower: 2, upper: 6 },
    ];
    view.handle(events[0]!);
    expect([view.total, view.value]).toEqual([12, 0]);
    view.handle(events[1]!);
    view.handle(events[2]!);
    // A plan of 6 moves: the window is 2..20 again, with 6..20 decided.
    expect([view.total, view.value]).toEqual([19, 15]);
    expect(view.payload).toMatchObject({ lower: '2', upper: '6', horizons: 't9:sat' });
  });

  it("shows a split horizon's cubes refuted while it runs, and its answer once it has one", () => {
    const view = new SweepProgressView();
    view.handle({ type: 'sweep', lower: 5, max: 20, policy: 'consecutive' });
    view.handle({ type: 'horizon', t: 9, state: 'running', ms: 0 });
    view.handle({ type: 'split', t: 9, depth: 1, cubes: 12, refuted: 0, unanswered: 0 });
    view.handle({ type: 'split', t: 9, depth: 1, cubes: 12, refuted: 5, unanswered: 0 });
    expect(view.payload.horizons).toBe('t9:cubes 5/12');
    view.handle({ type: 'horizon', t: 9, state: 'unsat', ms: 900 });
    expect(view.payload.horizons).toBe('t9:unsat');
  });
});
