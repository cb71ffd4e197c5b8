/*
 * Custom Hex-a-Hop maps: how long reading one takes, accepted or refused. A map sent to the API is
 * parsed in the request (its static analysis decides whether the encoding supports it), so the
 * slowest map here is the longest a request can spend before it is queued or refused.
 * Draws seeded random maps of every tile type, up to 12 x 11 cells, and times each parse.
 * Run: node dist/bench/hexahop/hexahop-custom-maps.bench.js [--maps N] [--seed S] [--out NAME|PATH]
 */
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';

import { unsafeUniformIntDistribution, xoroshiro128plus } from 'pure-rand';

import { InputError, parseHexahopInstance } from '@satfarm/games';

import { benchArgs, integerOption, resultsPath, writeResults } from './bench-options.js';

const { args, fail } = benchArgs('hexahop custom-maps bench', {
  maps: { type: 'string', default: '2000' },
  seed: { type: 'string', default: '20261125' },
  out: { type: 'string', default: 'hexahop-custom-maps' },
});

function integer(option: string, text: string, min: number): number {
  return integerOption(text, min, option, fail);
}

const mapCount = integer('maps', args.maps, 1);
const seed = integer('seed', args.seed, 0);
const out = resultsPath(args.out);

/** Map characters weighted towards floor and greens, with every tile type (see parseHexahopInstance). */
const CHARS = 'gggggooooGbBTTI#lHSSLUP..i';

interface Drawn {
  rows: string[];
  start: [number, number];
  items: [number, number, string][];
}

function drawMap(random: (n: number) => number): Drawn {
  const width = 3 + random(10);
  const height = 2 + random(10);
  const inner = Array.from({ length: height }, () =>
    Array.from({ length: width }, () => CHARS[random(CHARS.length)]).join(''),
  );
  const [sx, sy] = [random(width), random(height)];
  inner[sy] = `${inner[sy]!.slice(0, sx)}o${inner[sy]!.slice(sx + 1)}`;
  const rows = ['.'.repeat(width + 2), ...inner.map((r) => `.${r}.`), '.'.repeat(width + 2)];
  const items: [number, number, string][] =
    random(3) === 0 ? [[1 + random(width), 1 + random(height), random(2) === 0 ? 'jump' : 'anti-ice']] : [];
  return { rows, start: [sx + 1, sy + 1], items };
}

/** The outcome's name: accepted, or the reason of the refusal without the map's own words. */
function outcomeOf(error: unknown): string {
  if (!(error instanceof InputError)) throw error;
  const type = /tile type '([^']+)'/.exec(error.reason);
  return type === null ? `${error.field}: ${error.reason}` : `refused: ${type[1]}`;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

const round = (ms: number): number => Math.round(ms * 100) / 100;

function main(): void {
  const rng = xoroshiro128plus(seed);
  const random = (n: number): number => unsafeUniformIntDistribution(0, n - 1, rng);
  const times = new Map<string, number[]>();
  const slowest: { ms: number; outcome: string; map: Drawn }[] = [];
  for (let n = 0; n < mapCount; n++) {
    const map = drawMap(random);
    const began = performance.now();
    let outcome = 'accepted';
    try {
      parseHexahopInstance({ map: map.rows, start: map.start, items: map.items });
    } catch (error) {
      outcome = outcomeOf(error);
    }
    const ms = performance.now() - began;
    if (ms > 1000) console.log(`map ${n}: ${round(ms)} ms, ${outcome}: ${JSON.stringify(map)}`);
    times.set(outcome, [...(times.get(outcome) ?? []), ms]);
    slowest.push({ ms, outcome, map });
    slowest.sort((a, b) => b.ms - a.ms).splice(5);
  }
  const rows = [...times.entries()]
    .map(([outcome, ms]) => {
      const sorted = [...ms].sort((a, b) => a - b);
      return {
        outcome,
        maps: sorted.length,
        medianMs: round(quantile(sorted, 0.5)),
        p99Ms: round(quantile(sorted, 0.99)),
        maxMs: round(sorted.at(-1)!),
      };
    })
    .sort((a, b) => b.maps - a.maps);
  console.log(`hexahop custom maps: ${mapCount} random maps, seed ${seed}`);
  console.table(rows);
  console.log('slowest maps:');
  for (const s of slowest) console.log(`  ${round(s.ms)} ms  ${s.outcome}  ${JSON.stringify(s.map)}`);
  writeResults(out, {
    bench: 'hexahop-custom-maps',
    date: new Date().toISOString(),
    node: process.version,
    cpu: cpus()[0]?.model,
    maps: mapCount,
    seed,
    rows,
    slowest: slowest.map((s) => ({ ms: round(s.ms), outcome: s.outcome, ...s.map })),
  });
}

main();
