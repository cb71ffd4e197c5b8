// eslint-disable-next-line no-restricted-imports -- the reference solver is a separate program, run by this spec only
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { KissatRunner } from '@satfarm/solver';

import { encodeCube } from './cube.encode.js';
import { type Face, FaceletGeometry } from './cube.facelets.js';
import { generateScramble } from './cube.generate.js';
import { searchLowerBound, strongSearchPatterns } from './cube.bound-search.js';
import { cubeLowerBound } from './cube.lower-bound.js';
import { buildCubeTables, cubeTableDirectory, loadStrongCubeBound } from './cube.table-cache.js';
import { type CubeInstance, CubeState } from './cube.model.js';
import { parseCubeInstance } from './cube.parse.js';
import { cubePlanLength, verifyCube } from './cube.verify.js';

/** Reid's cubie order: edges, then corners; each cubie's colours in the order its location names its faces. */
const REID_LOCATIONS = 'UF UR UB UL DF DR DB DL FR FL BR BL UFR URB UBL ULF DRF DFL DLB DBR'.split(' ');

/** A cube in Michael Reid's input notation (colours as face letters). */
function reidNotation(instance: CubeInstance): string {
  const g = FaceletGeometry.of(3);
  return REID_LOCATIONS.map((loc) => {
    const faces = loc.split('') as Face[];
    return faces.map((f) => instance.facelets[g.faceletOf(faces, f)]).join('');
  }).join(' ');
}

/**
 * Optimal quarter-turn lengths from Reid's optimal solver (Debian's `rubiks` package). It builds
 * its tables for about 20 s per process, so all cubes go to one process.
 */
function reidOptimalLengths(cubes: string[]): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = spawn('rubiks_optimal', [], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.on('error', reject);
    child.on('close', () => {
      const answers = out.split('enter cube').slice(1, cubes.length + 1);
      resolve(
        answers.map((text) => {
          if (text.includes('already solved')) return 0;
          const lengths = [...text.matchAll(/\((\d+)q\*?,/g)].map((m) => Number(m[1]));
          return lengths.length === 0 ? Number.NaN : Math.min(...lengths);
        }),
      );
    });
    child.stdin.end(cubes.map((c) => `${c}\n`).join(''));
  });
}

/** Our optimum: horizons upwards from the lower bound, one at a time, every plan verified. */
async function ourOptimum(instance: CubeInstance, kissat: KissatRunner): Promise<number> {
  for (let t = cubeLowerBound(instance); ; t++) {
    const encoded = encodeCube(instance, t);
    const outcome = await kissat.solve({ formula: encoded.formula, timeoutMs: 60_000 });
    if (outcome.status === 'unsat') continue;
    if (outcome.status !== 'sat') throw new Error(`kissat gave ${outcome.status} at horizon ${t}`);
    const plan = encoded.decode(outcome.model);
    expect(verifyCube(instance, plan, t).ok).toBe(true);
    return cubePlanLength(plan);
  }
}

describe('3x3 optimum against rubiks_optimal (quarter-turn metric)', () => {
  it("agrees with Reid's optimal solver on short scrambles", { timeout: 240_000 }, async () => {
    const scrambles = [1, 2, 3, 4, 5].map((seed) =>
      generateScramble(3, 2 + (seed % 3), 300 + seed).join(' '),
    );
    const instances = scrambles.map((scramble) => parseCubeInstance({ size: 3, scramble, metric: 'qtm' }));
    const reference = reidOptimalLengths(instances.map(reidNotation));
    const kissat = new KissatRunner();
    const ours: number[] = [];
    for (const instance of instances) ours.push(await ourOptimum(instance, kissat));
    expect(ours).toEqual(await reference);
  });
});

describe('the strong quarter-turn bound against rubiks_optimal', () => {
  it(
    'never exceeds the optimum of 8- to 12-move scrambles; its search finds it exactly',
    { timeout: 300_000 },
    async () => {
      const instances = [8, 9, 10, 12].flatMap((n) =>
        [0, 1].map((i) =>
          parseCubeInstance({
            size: 3,
            scramble: generateScramble(3, n, 700 + 10 * n + i).join(' '),
            metric: 'qtm',
          }),
        ),
      );
      const reference = reidOptimalLengths(instances.map(reidNotation));
      // The machine's tables when set-up built them, else a build of our own (about 20 s).
      const shared = cubeTableDirectory();
      let tables = shared === undefined ? undefined : loadStrongCubeBound('qtm', shared);
      const own = tables === undefined ? mkdtempSync(join(tmpdir(), 'satfarm-pdb-reid-')) : undefined;
      try {
        if (own !== undefined) {
          buildCubeTables({ dir: own, metrics: ['qtm'] });
          tables = loadStrongCubeBound('qtm', own);
        }
        const optima = await reference;
        const bounds = instances.map((instance) => cubeLowerBound(instance, undefined, tables));
        bounds.forEach((b, i) =>
          expect(b, instances[i]!.scramble!.join(' ')).toBeLessThanOrEqual(optima[i]!),
        );
        // The search alone, given room, either proves the optimum or stays below it.
        const patterns = strongSearchPatterns(tables!, 5);
        const searched = instances.map((instance) =>
          searchLowerBound(CubeState.fromFacelets(3, instance.facelets), 'qtm', patterns, {
            start: 0,
            nodeBudget: 3_000_000,
          }),
        );
        searched.forEach((s, i) => {
          const scramble = instances[i]!.scramble!.join(' ');
          if (s.exact) expect(s.bound, scramble).toBe(optima[i]);
          else expect(s.bound, scramble).toBeLessThan(optima[i]!);
        });
        expect(searched.filter((s) => s.exact).length).toBeGreaterThanOrEqual(6);
        const old = instances.map((instance) => cubeLowerBound(instance, undefined, 'none'));
        expect(bounds.reduce((a, b) => a + b, 0)).toBeGreaterThan(
          old.reduce((a, b) => a + b, 0) + instances.length,
        );
      } finally {
        if (own !== undefined) rmSync(own, { recursive: true, force: true });
      }
    },
  );
});
