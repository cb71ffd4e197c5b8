/*
 * The strong 3x3 pattern tables on disk, built once and shared by every process of a machine
 * (docs/games.md#cube). A file is a 256-byte text header and the packed distances; it is written
 * to a temporary name and renamed, so a reader sees a whole file or none, and one whose length,
 * header or checksum does not match is ignored (and rebuilt by `buildCubeTables`).
 */
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

import type { CubieCoordinate } from './cube.coordinates.js';
import type { Metric } from './cube.model.js';
import {
  PackedDistances,
  type SearchLevel,
  searchDistances,
  strongCoordinates,
  type StrongCubeBound,
  strongCubeBound,
} from './cube.pattern-table.js';

/** Raised when the layout of a file changes: files of another version are rebuilt. */
export const CUBE_TABLE_FORMAT = 1;
const HEADER_BYTES = 256;
const MAGIC = 'satfarm-pdb';
/** The value of `SATFARM_PDB_DIR` that turns the tables off: the small databases alone bound. */
export const TABLES_OFF = 'off';

/**
 * Where the tables live: `SATFARM_PDB_DIR`, else `$XDG_CACHE_HOME/satfarm/pdb`, else
 * `~/.cache/satfarm/pdb`; undefined when `SATFARM_PDB_DIR` is `off`.
 */
export function cubeTableDirectory(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dir = env['SATFARM_PDB_DIR'];
  if (dir === TABLES_OFF) return undefined;
  if (dir !== undefined && dir !== '') return dir;
  const xdg = env['XDG_CACHE_HOME'];
  return join(xdg !== undefined && xdg !== '' ? xdg : join(homedir(), '.cache'), 'satfarm', 'pdb');
}

/**
 * Nodes the 3x3 bound's search may generate (`SATFARM_BOUND_SEARCH_NODES`, 0: no search). It
 * runs where a job is accepted, so the default keeps it short (docs/games.md#cube).
 */
export function boundSearchNodes(env: NodeJS.ProcessEnv = process.env): number {
  const text = env['SATFARM_BOUND_SEARCH_NODES'];
  if (text === undefined || text === '') return DEFAULT_BOUND_SEARCH_NODES;
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 0)
    throw new RangeError(`SATFARM_BOUND_SEARCH_NODES must be a whole number >= 0, got ${text}`);
  return n;
}

export const DEFAULT_BOUND_SEARCH_NODES = 200_000;

/** The file name of a table: cube size, metric, pattern and format version. */
export function cubeTableFileName(metric: Metric, coord: CubieCoordinate): string {
  return `cube3-${metric}-${coord.name}-v${CUBE_TABLE_FORMAT}.pdb`;
}

/** FNV-1a over the table's 32-bit words (bytes past the last whole word too). */
export function tableChecksum(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  const words = Math.floor(bytes.length / 4);
  if (bytes.byteOffset % 4 === 0) {
    const view = new Uint32Array(bytes.buffer, bytes.byteOffset, words);
    for (let w = 0; w < words; w++) h = Math.imul(h ^ view[w]!, 0x01000193);
  } else {
    const view = new DataView(bytes.buffer, bytes.byteOffset, words * 4);
    for (let w = 0; w < words; w++) h = Math.imul(h ^ view.getUint32(w * 4, true), 0x01000193);
  }
  for (let i = words * 4; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

function header(metric: Metric, coord: CubieCoordinate, distances: PackedDistances): Buffer {
  const text = JSON.stringify({
    format: MAGIC,
    version: CUBE_TABLE_FORMAT,
    size: 3,
    metric,
    pattern: coord.name,
    count: coord.count,
    checksum: tableChecksum(distances.bytes),
  });
  if (text.length >= HEADER_BYTES) throw new RangeError(`table header too long: ${text}`);
  return Buffer.from(`${text.padEnd(HEADER_BYTES - 1)}\n`, 'latin1');
}

/** What a look at a table's file found. */
export type TableFileStatus = 'present' | 'missing' | 'mismatched';

/**
 * The table of `coord` from `dir`: `present` with its distances when the file's length, header
 * and checksum are the expected ones; `missing` or `mismatched` (a file to rebuild) otherwise.
 */
export function readPatternTable(
  dir: string,
  metric: Metric,
  coord: CubieCoordinate,
): { status: 'present'; distances: PackedDistances } | { status: 'missing' | 'mismatched' } {
  const file = join(dir, cubeTableFileName(metric, coord));
  const want = HEADER_BYTES + PackedDistances.byteLength(coord.count);
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    return { status: 'missing' };
  }
  if (size !== want) return { status: 'mismatched' };
  const buf = readFileSync(file);
  if (buf.length !== want) return { status: 'mismatched' };
  let head: unknown;
  try {
    head = JSON.parse(buf.subarray(0, HEADER_BYTES).toString('latin1'));
  } catch {
    return { status: 'mismatched' };
  }
  const bytes = new Uint8Array(buf.buffer, buf.byteOffset + HEADER_BYTES, want - HEADER_BYTES);
  const h = head as Record<string, unknown>;
  const matches =
    h['format'] === MAGIC &&
    h['version'] === CUBE_TABLE_FORMAT &&
    h['size'] === 3 &&
    h['metric'] === metric &&
    h['pattern'] === coord.name &&
    h['count'] === coord.count &&
    h['checksum'] === tableChecksum(bytes);
  return matches
    ? { status: 'present', distances: new PackedDistances(coord.count, bytes) }
    : { status: 'mismatched' };
}

/** Writes a table under a temporary name and renames it into place. */
export function writePatternTable(
  dir: string,
  metric: Metric,
  coord: CubieCoordinate,
  distances: PackedDistances,
): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, cubeTableFileName(metric, coord));
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  const fd = openSync(temp, 'w');
  try {
    writeSync(fd, header(metric, coord, distances));
    writeSync(fd, distances.bytes);
  } catch (err) {
    closeSync(fd);
    unlinkSync(temp);
    throw err;
  }
  closeSync(fd);
  renameSync(temp, file);
  return file;
}

/** One table's outcome in `buildCubeTables`. */
export interface TableBuild {
  metric: Metric;
  pattern: string;
  file: string;
  /** `built` now, or `present` already (and left alone). */
  status: 'built' | 'present';
  /** Whether a file was there but did not match (so it was rebuilt). */
  replaced: boolean;
  entries: number;
  bytes: number;
  /** Time to make the move tables and search, and to write the file (built ones). */
  ms?: { moveTables: number; search: number; write: number };
  /** Distances 0..max: how many patterns lie at each. */
  histogram?: number[];
}

/** Options of `buildCubeTables`. */
export interface BuildCubeTablesOptions {
  dir: string;
  metrics: readonly Metric[];
  /** Rebuild even the tables already present. */
  force?: boolean;
  /** The coordinates to build per metric (default: the strong bound's). */
  coordinates?: (metric: Metric) => CubieCoordinate[];
  onTable?: (build: TableBuild) => void;
  onLevel?: (metric: Metric, pattern: string, level: SearchLevel) => void;
}

/** Builds the tables missing (or all, with `force`) into `dir`, one after the other. */
export function buildCubeTables(options: BuildCubeTablesOptions): TableBuild[] {
  const out: TableBuild[] = [];
  for (const metric of options.metrics) {
    for (const coord of (options.coordinates ?? strongCoordinates)(metric)) {
      const file = join(options.dir, cubeTableFileName(metric, coord));
      const bytes = PackedDistances.byteLength(coord.count);
      const found = readPatternTable(options.dir, metric, coord).status;
      let build: TableBuild;
      if (found === 'present' && options.force !== true) {
        build = {
          metric,
          pattern: coord.name,
          file,
          status: 'present',
          replaced: false,
          entries: coord.count,
          bytes,
        };
      } else {
        const started = performance.now();
        coord.prepare();
        const t0 = performance.now();
        const distances = searchDistances(coord, undefined, (level) =>
          options.onLevel?.(metric, coord.name, level),
        );
        const t1 = performance.now();
        writePatternTable(options.dir, metric, coord, distances);
        const t2 = performance.now();
        build = {
          metric,
          pattern: coord.name,
          file,
          status: 'built',
          replaced: found === 'mismatched',
          entries: coord.count,
          bytes,
          ms: {
            moveTables: Math.round(t0 - started),
            search: Math.round(t1 - t0),
            write: Math.round(t2 - t1),
          },
          histogram: distances.histogram(),
        };
      }
      out.push(build);
      options.onTable?.(build);
    }
  }
  return out;
}

/** How long a process waits before looking again for tables it did not find. */
const LOOK_AGAIN_MS = 60_000;
const loaded = new Map<string, { bound: StrongCubeBound | undefined; at: number }>();

/**
 * The strong bound of a metric from the tables in `dir` (default: `cubeTableDirectory()`), read
 * once per process; undefined when a table is missing or does not match, or the tables are off.
 * Absent tables are looked for again after a minute, so a long-lived process picks up a build.
 */
export function loadStrongCubeBound(
  metric: Metric,
  dir: string | undefined = cubeTableDirectory(),
): StrongCubeBound | undefined {
  if (dir === undefined) return undefined;
  const key = `${dir}\n${metric}`;
  const cached = loaded.get(key);
  if (cached !== undefined && (cached.bound !== undefined || performance.now() - cached.at < LOOK_AGAIN_MS))
    return cached.bound;
  let bound: StrongCubeBound | undefined;
  // Looking a state up needs no move tables: only the files are read.
  const coords = strongCoordinates(metric);
  const tables: PackedDistances[] = [];
  for (const coord of coords) {
    const read = readPatternTable(dir, metric, coord);
    if (read.status !== 'present') break;
    tables.push(read.distances);
  }
  if (tables.length === coords.length) bound = strongCubeBound(metric, tables);
  loaded.set(key, { bound, at: performance.now() });
  return bound;
}

/** Forgets the tables read so far (specs, and a process that rebuilt them). */
export function forgetStrongCubeBounds(): void {
  loaded.clear();
}
