import { type HexahopInstance, HexahopSimulator } from '@satfarm/games';

/** Whether `moves` win the level in the simulator, each one played and the player alive at the end. */
export function winsLevel(instance: HexahopInstance, moves: readonly string[]): boolean {
  const sim = new HexahopSimulator(instance);
  return moves.every((m) => sim.move(m).ok) && sim.won;
}
