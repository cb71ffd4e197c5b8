/*
 * Hex-a-Hop formula fingerprints: the SHA-256 of the DIMACS text (header, then every clause in
 * order) that the encoder writes for a fixed set of instances, to show that a change to the
 * encoder's code leaves its formulas as they were. Instances: every supported level of the
 * installed levels.dat at its lower bound and at its fewest moves and one below (as
 * bench/results/hexahop-levels.json records them), seeded random maps of every supported tile
 * and item, the small maps of the specs (formula-maps.ts), and the maps of `--maps FILE` (a JSON
 * list of the same shape, `input` as `solve --input` takes it). With `--variants`, each encoding
 * choice flipped from its default too, at one horizon per instance.
 * Run: node dist/bench/hexahop/hexahop-formula-hashes.bench.js [--only A,B] [--variants]
 *      [--random N] [--maps FILE] [--optima NAME|PATH] [--out NAME|PATH] [--check PATH]. Writes
 *      bench/results/NAME.json (hexahop-formula-hashes.json by default); with --check, also
 *      compares with the fingerprints of an earlier run and exits 1 when one of this run's formulas
 *      differs from it or is not in it (it also counts the earlier run's formulas not made again).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

import {
  DEFAULT_HEXAHOP_ENCODING,
  encodeHexahop,
  type EncodeOptions,
  type HexahopInstance,
  hexahopLowerBound,
  instanceOfLevel,
  loadLevelCatalog,
  parseHexahopInstance,
} from '@satfarm/games';
import { unsafeUniformIntDistribution, xoroshiro128plus } from 'pure-rand';

import {
  benchArgs,
  integerOption,
  machineFields,
  resultsPath,
  selectLevels,
  writeResults,
} from './bench-options.js';
import { FINGERPRINT_MAPS } from './formula-maps.js';

const { args, fail } = benchArgs('hexahop formula hashes', {
  only: { type: 'string' },
  variants: { type: 'boolean', default: false },
  random: { type: 'string', default: '40' },
  maps: { type: 'string' },
  out: { type: 'string', default: 'hexahop-formula-hashes' },
  check: { type: 'string' },
  optima: { type: 'string', default: 'hexahop-levels' },
});

const randomMaps = integerOption(args.random, 0, 'random', fail);

/** One instance to encode: how to make it (fresh each time: encodings remember windows per instance), and its horizons. */
interface Case {
  name: string;
  make: () => HexahopInstance;
  horizons: number[];
  /** Encoding choices to fingerprint at every horizon besides the defaults (from `--maps`). */
  variants?: EncodeOptions['variant'][];
}

interface Fingerprint {
  name: string;
  horizon: number;
  /** The encoding choices named, `default` for none. */
  variant: string;
  vars: number;
  clauses: number;
  sha256: string;
}

/** Fewest moves per level, as the level report (`--optima NAME|PATH`) recorded them. */
function recordedOptima(): Map<string, number> {
  const report = JSON.parse(readFileSync(resultsPath(args.optima), 'utf8')) as {
    lines: { level: string; moves?: number }[];
  };
  return new Map(report.lines.flatMap((l) => (l.moves === undefined ? [] : [[l.level, l.moves] as const])));
}

function levelCases(): Case[] {
  const optima = recordedOptima();
  return selectLevels(loadLevelCatalog(), args.only, fail)
    .filter((e) => e.supported)
    .map((entry) => {
      const lower = hexahopLowerBound(instanceOfLevel(entry));
      const best = optima.get(entry.name);
      const horizons = best === undefined ? [lower] : [lower, best - 1, best];
      return { name: entry.name, make: () => instanceOfLevel(entry), horizons: distinct(horizons) };
    });
}

/** Random maps of every supported tile, framed by water, with an item; those the parser refuses are skipped. */
function randomCases(count: number): Case[] {
  const rng = xoroshiro128plus(20261201);
  const random = (n: number): number => unsafeUniformIntDistribution(0, n - 1, rng);
  const chars = 'ggggggoooGGbbBTT#Il.HSLLUPP..';
  const cases: Case[] = [];
  for (let tries = 0; cases.length < count && tries < 50 * count; tries++) {
    const width = 3 + random(3);
    const height = 2 + random(3);
    const inner = Array.from({ length: height }, () =>
      Array.from({ length: width }, () => chars[random(chars.length)]).join(''),
    );
    const [sx, sy] = [random(width), random(height)];
    inner[sy] = `${inner[sy]!.slice(0, sx)}o${inner[sy]!.slice(sx + 1)}`;
    const rows = ['.'.repeat(width + 2), ...inner.map((r) => `.${r}.`), '.'.repeat(width + 2)];
    const items = [[1 + random(width), 1 + random(height), random(2) ? 'jump' : 'anti-ice']];
    const input = { map: rows, start: [sx + 1, sy + 1], items };
    try {
      parseHexahopInstance(input);
    } catch {
      continue;
    }
    cases.push({
      name: `random ${JSON.stringify(input)}`,
      make: () => parseHexahopInstance(input),
      horizons: [2, 5, 9],
    });
  }
  return cases;
}

/** A map as `solve --input` takes it, with its horizons (and choices to add at each). */
type MapEntry = Omit<Case, 'make'> & { input: unknown };

function mapCases(list: MapEntry[], prefix = ''): Case[] {
  return list.map(({ input, name, ...rest }) => ({
    ...rest,
    name: `${prefix}${name}`,
    make: () => parseHexahopInstance(input),
  }));
}

function distinct(horizons: number[]): number[] {
  return [...new Set(horizons.filter((h) => h >= 0))].sort((a, b) => a - b);
}

function fingerprint(c: Case, horizon: number, variant?: EncodeOptions['variant']): Fingerprint {
  const { formula } = encodeHexahop(c.make(), horizon, variant === undefined ? undefined : { variant });
  const hash = createHash('sha256');
  for (const chunk of formula.dimacsChunks()) hash.update(chunk);
  return {
    name: c.name,
    horizon,
    variant: variant === undefined ? 'default' : JSON.stringify(variant),
    vars: formula.numVars,
    clauses: formula.numClauses,
    sha256: hash.digest('hex'),
  };
}

/** Each encoding choice flipped from its default, one at a time. */
const FLIPPED: EncodeOptions['variant'][] = Object.entries(DEFAULT_HEXAHOP_ENCODING).map(([key, on]) => ({
  [key]: !on,
}));

function main(): void {
  const cases = [
    ...levelCases(),
    ...randomCases(randomMaps),
    ...mapCases(FINGERPRINT_MAPS, 'spec '),
    ...(args.maps === undefined ? [] : mapCases(JSON.parse(readFileSync(args.maps, 'utf8')) as MapEntry[])),
  ];
  const prints: Fingerprint[] = [];
  const started = Date.now();
  for (const c of cases) {
    for (const horizon of c.horizons) {
      prints.push(fingerprint(c, horizon));
      for (const variant of c.variants ?? []) prints.push(fingerprint(c, horizon, variant));
    }
    if (args.variants) {
      const horizon = c.horizons.at(-2) ?? c.horizons[0]!;
      for (const variant of FLIPPED) prints.push(fingerprint(c, horizon, variant));
    }
    console.log(`${c.name}: ${prints.length} formulas, ${Math.round((Date.now() - started) / 1000)} s`);
  }
  const out = resultsPath(args.out);
  writeResults(out, {
    bench: 'hexahop-formula-hashes',
    ...machineFields(),
    variants: args.variants,
    randomMaps,
    maps: args.maps ?? null,
    formulas: prints.length,
    prints,
  });
  if (args.check === undefined) return;
  const earlier = JSON.parse(readFileSync(args.check, 'utf8')) as { prints: Fingerprint[] };
  const key = (p: Fingerprint): string => `${p.name} T=${p.horizon} ${p.variant}`;
  const before = new Map(earlier.prints.map((p) => [key(p), p]));
  const differ = prints.filter((p) => before.get(key(p))?.sha256 !== p.sha256);
  for (const p of differ) {
    const was = before.get(key(p));
    console.log(
      `differs: ${key(p)}: ${was === undefined ? 'not in the earlier run' : `${was.vars} vars ${was.clauses} clauses`} -> ${p.vars} vars ${p.clauses} clauses`,
    );
  }
  // Of the instances this run encoded, the formulas the earlier run made that this one did not.
  const names = new Set(prints.map((p) => p.name));
  const made = new Set(prints.map(key));
  const missing = earlier.prints.filter((p) => names.has(p.name) && !made.has(key(p))).map(key);
  console.log(
    `${prints.length - differ.length} of ${prints.length} formulas identical to ${args.check}; ${missing.length} of the earlier run not made`,
  );
  if (differ.length > 0) process.exitCode = 1;
}

main();
