import { cellX, cellY } from './hexahop.geometry.js';
import { hexMapLegend, hexMapLines, mapRows, occupiedBounds } from './hexahop.map-text.js';
import { type HexahopInstance, HexahopSimulator, type HexahopSolution } from './hexahop.model.js';

/** The board after one move of a plan. */
export interface HexahopFrame {
  t: number;
  /** The move that led here (none for the start). */
  move?: string;
  player: [number, number];
  score: number;
  /** The map inside `bounds`, one character per tile (see TILE_CHARS). */
  rows: string[];
}

/** What the dashboard draws: the level, its box on the 30 x 30 map and one frame per move. */
export interface HexahopRender {
  name: string;
  par?: number;
  bounds: { xmin: number; xmax: number; ymin: number; ymax: number };
  frames: HexahopFrame[];
}

/** Frames of the plan, replayed with the simulator (stops at a refused move). */
export function renderHexahop(
  instance: HexahopInstance,
  solution: HexahopSolution | undefined,
): HexahopRender {
  const sim = new HexahopSimulator(instance);
  const bounds = occupiedBounds(instance.tiles, [sim.player]);
  const frame = (t: number, move?: string): HexahopFrame => ({
    t,
    ...(move === undefined ? {} : { move }),
    player: [cellX(sim.player), cellY(sim.player)],
    score: sim.score,
    rows: mapRows(sim.tiles, bounds),
  });
  const frames = [frame(0)];
  for (const [i, m] of (solution?.moves ?? []).entries()) {
    if (!sim.move(m).ok) break;
    frames.push(frame(i + 1, m));
  }
  return {
    name: instance.name,
    ...(instance.par === undefined ? {} : { par: instance.par }),
    bounds,
    frames,
  };
}

/**
 * The plan as text: the level as it starts (hexes laid out as `hexMapLines` does), its moves, and
 * the score it ends with beside the level's par.
 */
export function hexahopText(view: HexahopRender): string {
  const moves = view.frames.flatMap((f) => (f.move === undefined ? [] : [f.move]));
  const start = view.frames[0]!;
  const score = view.frames[view.frames.length - 1]!.score;
  const map = hexMapLines(start.rows, view.bounds, start.player);
  return [
    `${view.name} (${hexMapLegend(map, start.rows[start.player[1] - view.bounds.ymin]?.[start.player[0] - view.bounds.xmin])}):`,
    ...map,
    `moves (${moves.length}): ${moves.join(' ')}`,
    `score ${score}${view.par === undefined ? '' : `, par ${view.par}`}`,
  ].join('\n');
}

/** One line naming the level: its number and name, or `custom` for a map given in the input. */
export function summarizeHexahop(instance: HexahopInstance): string {
  return instance.number === undefined ? instance.name : `#${instance.number} ${instance.name}`;
}
