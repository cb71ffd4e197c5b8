import { resolve } from 'node:path';

import type { ParseContext } from '../game-definition.js';
import { InputError, unknownField } from '../input-error.js';
import { planMoves } from '../plan-input.js';
import { hexahopSolutionOf } from './hexahop.decode.js';
import { unsupportedFeatures } from './hexahop.features.js';
import { cellIndex, MAP_SIZE, MOVE_NAMES, type MoveName } from './hexahop.geometry.js';
import { type CatalogEntry, instanceOfLevel, loadLevelCatalog } from './hexahop.level-catalog.js';
import { DEFAULT_LEVELS_PATH, LevelFileError } from './hexahop.level-file.js';
import { type HexahopInstance, type HexahopSolution, Item, SOLIDITY, Tile } from './hexahop.model.js';
import { tileOfChar } from './hexahop.map-text.js';

const FIELDS = new Set(['level', 'levels', 'map', 'start', 'items', 'name']);

/**
 * Parses a Hex-a-Hop instance (docs/cli.md#instance-formats), a level of a levels file or a map by
 * hand (TILE_CHARS), as a JSON value or its text; a level the encoding does not handle is refused
 * here, naming the tile type. With `context.readableFiles`, any other `levels` path is refused
 * before the file is looked at, so a client learns nothing of the files. Throws `InputError`
 * naming the field at fault.
 */
export function parseHexahopInstance(input: unknown, context?: ParseContext): HexahopInstance {
  let raw = typeof input === 'string' ? parseText(input) : input;
  if (typeof raw === 'string' || typeof raw === 'number') raw = { level: raw };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new InputError('input', 'expected a JSON object with "level" or "map"');
  }
  const obj = raw as Record<string, unknown>;
  for (const key of Object.keys(obj)) if (!FIELDS.has(key)) throw unknownField(key);
  if (obj.level !== undefined && obj.map !== undefined)
    throw new InputError('map', 'give either level or map, not both');
  const instance =
    obj.level !== undefined ? parseLevel(obj, context) : obj.map !== undefined ? parseMap(obj) : undefined;
  if (instance === undefined) throw new InputError('level', 'required (or a map)');
  const unsupported = unsupportedFeatures(instance);
  if (unsupported.length > 0) {
    const field = obj.level !== undefined ? 'level' : 'map';
    const types = unsupported.map((t) => `'${t}'`).join(', ');
    const plural = unsupported.length > 1;
    throw new InputError(
      field,
      `level '${instance.name}' uses tile type${plural ? 's' : ''} ${types}, which ${plural ? 'are' : 'is'} not supported yet`,
    );
  }
  return instance;
}

function parseText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text.trim();
  }
}

function parseLevel(obj: Record<string, unknown>, context: ParseContext | undefined): HexahopInstance {
  for (const key of ['map', 'start', 'items'] as const) {
    if (obj[key] !== undefined) throw new InputError(key, 'only with a map, not with a level');
  }
  const path = obj.levels ?? DEFAULT_LEVELS_PATH;
  if (typeof path !== 'string' || path === '') throw new InputError('levels', 'expected a file path');
  const file = resolve(path);
  const allowed = context?.readableFiles;
  if (allowed !== undefined && file !== DEFAULT_LEVELS_PATH && !allowed.has(file)) {
    throw new InputError(
      'levels',
      'not a level file this service reads; leave levels out for the installed levels.dat',
    );
  }
  let catalog: CatalogEntry[];
  try {
    catalog = loadLevelCatalog(file);
  } catch (error) {
    if (error instanceof LevelFileError) throw new InputError('levels', error.message);
    throw error;
  }
  const entry = findLevel(catalog, obj.level);
  const instance = instanceOfLevel(entry);
  if (typeof obj.name === 'string') instance.name = obj.name;
  return instance;
}

function normalise(name: string): string {
  return name
    .replace(/\//g, '\\')
    .replace(/\.lev$/i, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

function findLevel(catalog: CatalogEntry[], level: unknown): CatalogEntry {
  const asNumber =
    typeof level === 'number'
      ? level
      : typeof level === 'string' && /^\d+$/.test(level.trim())
        ? Number(level)
        : undefined;
  if (asNumber !== undefined) {
    const entry = catalog[asNumber - 1];
    if (!Number.isInteger(asNumber) || entry === undefined) {
      throw new InputError(
        'level',
        `no level number ${asNumber}; levels are numbered 1 to ${catalog.length}`,
      );
    }
    return entry;
  }
  if (typeof level !== 'string' || level.trim() === '') {
    throw new InputError('level', 'expected a level name, file name or number');
  }
  const wanted = normalise(level);
  const found = catalog.find(
    (e) =>
      normalise(e.name) === wanted ||
      normalise(e.file) === wanted ||
      normalise(e.record.path) === wanted ||
      normalise(e.record.entry) === wanted,
  );
  if (found !== undefined) return found;
  if (wanted === 'map') throw new InputError('level', "'map' is the world map, not a level");
  const candidates = catalog.flatMap((e) => [e.name, e.file]);
  let best = candidates[0]!;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const c of candidates) {
    const d = editDistance(wanted, normalise(c));
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  const hint = bestDistance <= Math.max(2, Math.floor(wanted.length / 3)) ? `; did you mean '${best}'?` : '';
  throw new InputError('level', `no level named '${level}'${hint}`);
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row.push(Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    }
    prev = row;
  }
  return prev[b.length]!;
}

function parseMap(obj: Record<string, unknown>): HexahopInstance {
  if (obj.levels !== undefined) throw new InputError('levels', 'only with a level, not with a map');
  const rows = obj.map;
  if (!Array.isArray(rows) || rows.length === 0 || !rows.every((r) => typeof r === 'string')) {
    throw new InputError('map', 'expected a non-empty list of row strings');
  }
  if (rows.length > MAP_SIZE) throw new InputError('map', `at most ${MAP_SIZE} rows`);
  const tiles = new Array<number>(MAP_SIZE * MAP_SIZE).fill(Tile.Water);
  const items = new Array<number>(MAP_SIZE * MAP_SIZE).fill(Item.None);
  rows.forEach((row: string, y) => {
    if (row.length > MAP_SIZE) throw new InputError('map', `row ${y} is longer than ${MAP_SIZE}`);
    [...row].forEach((ch, x) => {
      const t = tileOfChar(ch);
      if (t === undefined)
        throw new InputError('map', `row ${y} column ${x}: unknown tile character '${ch}'`);
      tiles[cellIndex(x, y)] = t;
    });
  });
  if (!tiles.includes(Tile.Green)) throw new InputError('map', 'the map needs at least one green tile');
  const start = obj.start;
  if (!Array.isArray(start) || start.length !== 2 || !start.every((v) => Number.isInteger(v))) {
    throw new InputError('start', 'expected [x, y]');
  }
  const [sx, sy] = start as [number, number];
  const startCell = cellIndex(sx, sy);
  if (startCell < 0 || SOLIDITY[tiles[startCell]!] === -1)
    throw new InputError('start', `(${sx}, ${sy}) is not on a tile`);
  if (obj.items !== undefined) {
    if (!Array.isArray(obj.items)) throw new InputError('items', 'expected a list of [x, y, kind]');
    for (const [i, item] of obj.items.entries()) {
      const ok =
        Array.isArray(item) && item.length === 3 && Number.isInteger(item[0]) && Number.isInteger(item[1]);
      const kind = ok
        ? item[2] === 'anti-ice'
          ? Item.AntiIce
          : item[2] === 'jump'
            ? Item.Jump
            : undefined
        : undefined;
      const c = ok ? cellIndex(item[0] as number, item[1] as number) : -1;
      if (kind === undefined || c < 0)
        throw new InputError('items', `item ${i}: expected [x, y, "anti-ice"|"jump"] on the map`);
      items[c] = kind;
    }
  }
  return {
    name: typeof obj.name === 'string' ? obj.name : 'custom',
    tiles,
    items,
    start: [sx, sy],
  };
}

/**
 * Reads a plan a user gives for `instance` (`--plan`): moves named N NE SE S SW NW or J, as a list,
 * a string, or a report's `solution`; the score is the simulator's, the par the level's. Whether
 * the moves win is the simulator's to say when the plan is verified.
 */
export function parseHexahopPlan(input: unknown, instance: HexahopInstance): HexahopSolution {
  const moves = planMoves(input).moves.map((name, i): MoveName => {
    if (!(MOVE_NAMES as readonly string[]).includes(name)) {
      throw new InputError(
        'plan',
        `unknown move '${name}' (move ${i + 1}); moves are ${MOVE_NAMES.join(' ')}`,
      );
    }
    return name as MoveName;
  });
  return hexahopSolutionOf(instance, moves);
}
