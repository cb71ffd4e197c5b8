/** What `splitByMoves` needs of a game: its states, the moves from each, and instances of them. */
export interface MoveSplitSearch<State, Move, I> {
  start: State;
  /**
   * Each move that may be played from `state` with the state it leads to; moves refused or lost
   * (a death) are left out, since no plan plays them.
   */
  successors(state: State): Iterable<readonly [Move, State]>;
  /** Identifies a state: two states with one key have the same plans from them. */
  key(state: State): string;
  /** Whether the goal is reached in `state`. */
  reached(state: State): boolean;
  /**
   * `state` as an instance of the game to solve from, or undefined when no instance can start
   * there (Hex-a-Hop's item in hand): the split then goes a move further from it.
   */
  instanceOf(state: State): I | undefined;
}

/** The cubes of `splitByMoves`, by their moves, or the moves of a plan met on the way. */
export interface MoveSplit<Move, I> {
  cubes: { moves: Move[]; instance: I }[];
  plan?: Move[];
}

/** The most states one split may visit before it gives up (its memory and time stay small). */
export const MAX_SPLIT_STATES = 200_000;

/**
 * Splits "a plan within `horizon` moves" by its first `depth` moves, breadth first: each distinct
 * state the first moves reach is one cube, taken at the fewest moves that reach it. A state met
 * again deeper has fewer moves left, so the cube (or the state expanded) at the shallower depth
 * already covers every plan through it; this needs a game whose plans from a state do not depend
 * on how it was reached and whose horizon means "within". A state that cannot start an instance
 * goes a move deeper, up to `horizon` (a state still not won there lies on no plan within it).
 * The first state that reaches the goal ends the split with its plan. Undefined past `maxStates`.
 */
export function splitByMoves<State, Move, I>(
  search: MoveSplitSearch<State, Move, I>,
  depth: number,
  horizon: number,
  maxStates = MAX_SPLIT_STATES,
): MoveSplit<Move, I> | undefined {
  if (!Number.isInteger(depth) || depth < 1 || depth > horizon)
    throw new RangeError(`depth must be an integer from 1 to the horizon ${horizon}, got ${depth}`);
  if (search.reached(search.start)) return { cubes: [], plan: [] };
  const seen = new Set<string>([search.key(search.start)]);
  const cubes: MoveSplit<Move, I>['cubes'] = [];
  let layer: { state: State; moves: Move[] }[] = [{ state: search.start, moves: [] }];
  for (let d = 1; d <= horizon && layer.length > 0; d++) {
    const next: typeof layer = [];
    for (const node of layer) {
      for (const [move, state] of search.successors(node.state)) {
        const key = search.key(state);
        if (seen.has(key)) continue;
        seen.add(key);
        if (seen.size > maxStates) return undefined;
        const moves = [...node.moves, move];
        if (search.reached(state)) return { cubes: [], plan: moves };
        const instance = d >= depth ? search.instanceOf(state) : undefined;
        if (instance !== undefined) cubes.push({ moves, instance });
        else next.push({ state, moves });
      }
    }
    layer = next;
  }
  return { cubes };
}
