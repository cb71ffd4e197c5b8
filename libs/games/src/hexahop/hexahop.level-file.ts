import { readFileSync, statSync } from 'node:fs';

/** Where Debian's hex-a-hop-data installs the game's levels. */
export const DEFAULT_LEVELS_PATH = '/usr/share/games/hex-a-hop/hex-a-hop/levels.dat';

/** One named entry of the levels.dat container. */
export interface PackEntry {
  /** The full name, e.g. `Levels\0_green\asymmetrix.lev`. */
  name: string;
  data: Uint8Array;
}

/** One level record (format version 4), coordinates on the game's 30 x 30 map. */
export interface LevelRecord {
  /** The container entry's name, e.g. `Levels\0_green\asymmetrix.lev`. */
  entry: string;
  /** The path below `Levels\`, e.g. `0_green\asymmetrix.lev` (the key of the display-name table). */
  path: string;
  /** The folder, e.g. `0_green` (empty for levels at the top). */
  chapter: string;
  /** The file name without `.lev`, e.g. `asymmetrix`. */
  file: string;
  version: number;
  /** The game's par score. */
  par: number;
  /** Difficulty 0..10. */
  difficulty: number;
  bounds: { xmin: number; xmax: number; ymin: number; ymax: number };
  start: { x: number; y: number };
  /** Tile id (0..31) of every cell in bounds, `tiles[(x - xmin) * height + (y - ymin)]`. */
  tiles: Uint8Array;
  /** Item (0 none, 1 anti-ice, 2 jump) of every cell in bounds, same layout. */
  items: Uint8Array;
  /** Bytes after the grid (the world map's links to levels; empty for levels). */
  specials: Uint8Array;
}

/** A malformed levels.dat. */
export class LevelFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LevelFileError';
  }
}

/**
 * Splits a levels.dat container: the last 4 bytes are an int32 `size`, the entries fill the `size`
 * bytes before them, each an int32 `len`, a NUL-terminated name and `len - strlen(name) - 1` data bytes.
 */
export function readPackEntries(bytes: Uint8Array): PackEntry[] {
  if (bytes.length < 4) throw new LevelFileError('file too short for a level pack');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = bytes.length - 4;
  const size = view.getInt32(end, true);
  if (size < 0 || size > end) throw new LevelFileError(`pack size ${size} does not fit the file`);
  const entries: PackEntry[] = [];
  let off = end - size;
  while (off < end) {
    if (off + 4 > end) throw new LevelFileError(`entry header at ${off} runs past the pack`);
    const len = view.getInt32(off, true);
    off += 4;
    if (len <= 0 || off + len > end) throw new LevelFileError(`entry at ${off - 4} has a bad length ${len}`);
    const blob = bytes.subarray(off, off + len);
    const nul = blob.indexOf(0);
    if (nul < 0) throw new LevelFileError(`entry at ${off - 4} has no NUL-terminated name`);
    entries.push({ name: latin1(blob.subarray(0, nul)), data: blob.subarray(nul + 1) });
    off += len;
  }
  return entries;
}

/** Reads one level record of format version 2..4 (`par` from 3, `diff` from 4). */
export function readLevelRecord(name: string, data: Uint8Array): LevelRecord {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const need = (n: number, at: number, what: string): void => {
    if (at + n > data.length) throw new LevelFileError(`${name}: ${what} runs past the record`);
  };
  need(2, 0, 'version');
  const version = data[0]! - 0x30;
  if (version < 2 || version > 4 || data[1] !== 0x0a) {
    throw new LevelFileError(`${name}: unsupported record version byte ${data[0]}`);
  }
  let off = 2;
  let par = 0;
  let difficulty = 0;
  if (version >= 3) {
    need(4, off, 'par');
    par = view.getInt32(off, true);
    off += 4;
  }
  if (version >= 4) {
    need(4, off, 'difficulty');
    difficulty = view.getInt32(off, true);
    off += 4;
  }
  need(12, off, 'bounds and start');
  const bounds = { xmin: data[off]!, xmax: data[off + 1]!, ymin: data[off + 2]!, ymax: data[off + 3]! };
  off += 4;
  const start = { x: view.getInt32(off, true), y: view.getInt32(off + 4, true) };
  off += 8;
  const width = bounds.xmax - bounds.xmin + 1;
  const height = bounds.ymax - bounds.ymin + 1;
  if (width <= 0 || height <= 0) throw new LevelFileError(`${name}: empty bounds`);
  need(width * height, off, 'grid');
  const grid = data.subarray(off, off + width * height);
  off += width * height;
  const path = name.startsWith('Levels\\') ? name.slice('Levels\\'.length) : name;
  const slash = path.lastIndexOf('\\');
  const base = slash < 0 ? path : path.slice(slash + 1);
  return {
    entry: name,
    path,
    chapter: slash < 0 ? '' : path.slice(0, slash),
    file: base.replace(/\.lev$/i, ''),
    version,
    par,
    difficulty,
    bounds,
    start,
    tiles: grid.map((b) => b & 0x1f),
    items: grid.map((b) => (b >> 5) & 3),
    specials: data.slice(off),
  };
}

/** The largest levels file read (the game's own is about 21 KiB). */
const MAX_LEVEL_FILE_BYTES = 16 * 1024 * 1024;

/** Every record of a levels.dat file (levels and the world map), in the file's order. */
export function readLevelFile(path: string = DEFAULT_LEVELS_PATH): LevelRecord[] {
  let bytes: Uint8Array;
  try {
    // A path can name a device or a pipe (/dev/zero never ends, a FIFO never answers): only a
    // regular file of a levels file's size is read.
    const stat = statSync(path);
    if (!stat.isFile()) throw new LevelFileError(`cannot read ${path}: not a regular file`);
    if (stat.size > MAX_LEVEL_FILE_BYTES)
      throw new LevelFileError(`cannot read ${path}: larger than ${MAX_LEVEL_FILE_BYTES} bytes`);
    bytes = readFileSync(path);
  } catch (error) {
    if (error instanceof LevelFileError) throw error;
    throw new LevelFileError(`cannot read ${path}: ${(error as Error).message}`);
  }
  return readPackEntries(bytes).map((e) => readLevelRecord(e.name, e.data));
}

/** Whether a record is the world map rather than a level (it links levels through specials). */
export function isWorldMap(record: LevelRecord): boolean {
  return record.specials.length > 0;
}

function latin1(bytes: Uint8Array): string {
  return String.fromCharCode(...bytes);
}
