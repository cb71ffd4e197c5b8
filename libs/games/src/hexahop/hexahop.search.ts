import { MOVE_NAMES, type MoveName } from './hexahop.geometry.js';
import { type HexahopInstance, HexahopSimulator } from './hexahop.model.js';

/** What a breadth-first search over a level's states found. */
export interface HexahopSearchOutcome {
  /** A shortest winning plan, when the search reached a win. */
  plan?: MoveName[];
  /**
   * Every plan of this many moves was played out without a win: the fewest moves to win are at
   * least one more (when no plan was found).
   */
  searchedDepth: number;
  /** Distinct states seen (the start included). */
  states: number;
  /** Set when the search stopped at `maxStates` before a win or the last state. */
  capped: boolean;
}

/**
 * Fewest moves to win by breadth-first search over the simulator's states: an answer that owes
 * nothing to the encoding, for levels whose reachable states are few enough to hold (a few
 * million at most). Moves are tried in MOVE_NAMES order, so the plan found is the same on every
 * run. Without a win inside `maxStates`, says how deep the search got: no plan is that short.
 * `onState` sees the simulator in each new state the search reaches (the start excluded).
 */
export function searchShortestWin(
  instance: Pick<HexahopInstance, 'tiles' | 'items' | 'start'>,
  maxStates: number,
  onState?: (sim: HexahopSimulator) => void,
): HexahopSearchOutcome {
  const sim = new HexahopSimulator(instance);
  const packed: Uint8Array[] = [];
  const parent: number[] = [];
  const via: number[] = [];
  const seen = new Map<string, number>();
  const add = (state: Uint8Array, from: number, move: number): number => {
    const key = Buffer.from(state.buffer, state.byteOffset, state.byteLength).toString('latin1');
    if (seen.has(key)) return -1;
    seen.set(key, packed.length);
    packed.push(state);
    parent.push(from);
    via.push(move);
    return packed.length - 1;
  };
  const planTo = (last: number, move: number): MoveName[] => {
    const moves = [MOVE_NAMES[move]!];
    for (let s = last; parent[s]! >= 0; s = parent[s]!) moves.push(MOVE_NAMES[via[s]!]!);
    return moves.reverse();
  };
  let frontier = [add(sim.packState(), -1, -1)];
  for (let depth = 0; ; depth++) {
    const next: number[] = [];
    for (const s of frontier) {
      for (let m = 0; m < MOVE_NAMES.length; m++) {
        sim.unpackState(packed[s]!, depth);
        if (!sim.move(MOVE_NAMES[m]!).ok || sim.dead) continue;
        if (sim.won) return { plan: planTo(s, m), searchedDepth: depth, states: seen.size, capped: false };
        const n = add(sim.packState(), s, m);
        if (n < 0) continue;
        onState?.(sim);
        if (seen.size >= maxStates) return { searchedDepth: depth, states: seen.size, capped: true };
        next.push(n);
      }
    }
    // Past the layer that ran out: a win would have been one move deeper than the last states.
    if (next.length === 0)
      return { searchedDepth: Number.POSITIVE_INFINITY, states: seen.size, capped: false };
    frontier = next;
  }
}
