import { cellIndex, MAP_SIZE } from './hexahop.geometry.js';
import { InputError } from '../input-error.js';
import {
  DEFAULT_LEVELS_PATH,
  isWorldMap,
  LevelFileError,
  type LevelRecord,
  readLevelFile,
} from './hexahop.level-file.js';
import { displayNameOf } from './hexahop.level-names.js';
import type { HexahopInstance } from './hexahop.model.js';
import { featuresOf, unsupportedFeatures } from './hexahop.features.js';

/** One level of levels.dat, as listed by `satfarm levels hexahop`. */
export interface HexahopLevelInfo {
  /** Position 1..100 among the levels, in the file's (sorted by path) order. */
  number: number;
  /** Display name (the file name when the name table does not know the level). */
  name: string;
  /** File name without `.lev`. */
  file: string;
  chapter: string;
  par: number;
  difficulty: number;
  /** Tile types and items present. */
  tiles: string[];
  supported: boolean;
  /** The tile types and items the solver does not handle yet (empty when supported). */
  unsupported: string[];
}

/** A level with its record. */
export interface CatalogEntry extends HexahopLevelInfo {
  record: LevelRecord;
}

const cache = new Map<string, CatalogEntry[]>();

/** The levels of the file at `path` (the world map left out), read once per path. */
export function loadLevelCatalog(path: string = DEFAULT_LEVELS_PATH): CatalogEntry[] {
  let entries = cache.get(path);
  if (entries !== undefined) return entries;
  entries = readLevelFile(path)
    .filter((r) => !isWorldMap(r))
    .map((record, i) => {
      const map = mapOf(record);
      const entry = {
        number: i + 1,
        name: displayNameOf(record.path) ?? record.file,
        file: record.file,
        chapter: record.chapter,
        par: record.par,
        difficulty: record.difficulty,
        tiles: featuresOf(map),
        record,
      } as CatalogEntry;
      // Support takes the statics of the level (docs/cli.md#levels): worked out when asked, so
      // parsing one level does not pay for all of them.
      let unsupported: string[] | undefined;
      const unsupportedOf = (): string[] =>
        (unsupported ??= unsupportedFeatures({ ...map, start: [record.start.x, record.start.y] }));
      return Object.defineProperties(entry, {
        unsupported: { enumerable: true, get: unsupportedOf },
        supported: { enumerable: true, get: () => unsupportedOf().length === 0 },
      });
    });
  cache.set(path, entries);
  return entries;
}

/**
 * The levels of levels.dat (default: the installed file) with par, difficulty, tile types and
 * support. Throws `InputError` on field `levels` when the file cannot be read as a level pack.
 */
export function listHexahopLevels(path?: string): HexahopLevelInfo[] {
  try {
    return loadLevelCatalog(path).map(({ record: _record, ...info }) => info);
  } catch (error) {
    if (error instanceof LevelFileError) throw new InputError('levels', error.message);
    throw error;
  }
}

/** The instance of one catalogued level. */
export function instanceOfLevel(entry: CatalogEntry): HexahopInstance {
  const { tiles, items } = mapOf(entry.record);
  return {
    name: entry.name,
    file: entry.file,
    chapter: entry.chapter,
    number: entry.number,
    par: entry.par,
    difficulty: entry.difficulty,
    tiles: Array.from(tiles),
    items: Array.from(items),
    start: [entry.record.start.x, entry.record.start.y],
  };
}

function mapOf(record: LevelRecord): { tiles: Uint8Array; items: Uint8Array } {
  const tiles = new Uint8Array(MAP_SIZE * MAP_SIZE);
  const items = new Uint8Array(MAP_SIZE * MAP_SIZE);
  const { xmin, xmax, ymin, ymax } = record.bounds;
  const height = ymax - ymin + 1;
  for (let x = xmin; x <= xmax; x++) {
    for (let y = ymin; y <= ymax; y++) {
      const c = cellIndex(x, y);
      if (c < 0) continue;
      tiles[c] = record.tiles[(x - xmin) * height + (y - ymin)]!;
      items[c] = record.items[(x - xmin) * height + (y - ymin)]!;
    }
  }
  return { tiles, items };
}
