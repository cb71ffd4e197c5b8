import { DIRECTIONS, OFF_MAP, stepFrom } from './hexahop.geometry.js';
import { Item, ITEM_NAMES, Tile, TILE_NAMES } from './hexahop.model.js';
import { type HexahopMap, staticsOf } from './hexahop.statics.js';

/** The tile ids the SAT encoding handles (all but the switch, which no level uses). */
export const SUPPORTED_TILES: ReadonlySet<number> = new Set<number>([
  Tile.Water,
  Tile.Normal,
  Tile.Green,
  Tile.GreenWall,
  Tile.Trampoline,
  Tile.Spinner,
  Tile.Stone,
  Tile.Blue,
  Tile.BlueWall,
  Tile.Laser,
  Tile.Ice,
  Tile.DeIced,
  Tile.Builder,
  Tile.Boat,
  Tile.LiftDown,
  Tile.LiftUp,
]);

/** The names of the tile types (and items, as `anti-ice item`/`jump item`) present on a map. */
export function featuresOf(map: { tiles: ArrayLike<number>; items: ArrayLike<number> }): string[] {
  const tiles = new Set<number>();
  const items = new Set<number>();
  for (let c = 0; c < map.tiles.length; c++) {
    if (map.tiles[c] !== Tile.Water) tiles.add(map.tiles[c]!);
    if (map.items[c] !== Item.None) items.add(map.items[c]!);
  }
  return [
    ...[...tiles].sort((a, b) => a - b).map((t) => TILE_NAMES[t] ?? `tile ${t}`),
    ...[...items].sort((a, b) => a - b).map((i) => `${ITEM_NAMES[i]} item`),
  ];
}

/**
 * The tile types on a map that the encoding does not handle (empty: supported): a reachable spinner
 * next to the edge of the map turns tiles off it, which the encoding leaves out, unless the level's
 * tiles may spread and it is encoded in a window (docs/hexahop.md#windows).
 */
export function unsupportedFeatures(map: HexahopMap): string[] {
  const out = new Set<string>();
  for (let c = 0; c < map.tiles.length; c++) {
    const t = map.tiles[c]!;
    if (!SUPPORTED_TILES.has(t)) out.add(TILE_NAMES[t] ?? `tile ${t}`);
  }
  if (out.size === 0 && Array.from(map.tiles).includes(Tile.Spinner) && !staticsOf(map).unbounded) {
    // A spinner at the edge turns tiles off the map (a green lost without a board check).
    const st = staticsOf(map);
    const edge = st
      .cellsThatMayHold(Tile.Spinner)
      .some((c) => st.firstArrival(c) < Infinity && DIRECTIONS.some((d) => stepFrom(c, d) === OFF_MAP));
    if (edge) out.add('spinner (next to the edge of the map)');
  }
  return [...out];
}
