import { Item, ITEM_NAMES, Tile, TILE_NAMES } from './hexahop.model.js';

/** The tile ids the SAT encoding handles. */
export const SUPPORTED_TILES: ReadonlySet<number> = new Set<number>([
  Tile.Water,
  Tile.Normal,
  Tile.Green,
  Tile.GreenWall,
  Tile.Trampoline,
  Tile.Stone,
  Tile.Blue,
  Tile.BlueWall,
  Tile.Ice,
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

/** The tile types and items on a map that the encoding does not handle yet (empty: supported). */
export function unsupportedFeatures(map: { tiles: ArrayLike<number>; items: ArrayLike<number> }): string[] {
  const out = new Set<string>();
  for (let c = 0; c < map.tiles.length; c++) {
    const t = map.tiles[c]!;
    if (!SUPPORTED_TILES.has(t)) out.add(TILE_NAMES[t] ?? `tile ${t}`);
  }
  for (let c = 0; c < map.items.length; c++) {
    const i = map.items[c]!;
    if (i !== Item.None) out.add(`${ITEM_NAMES[i]} item`);
  }
  return [...out];
}
