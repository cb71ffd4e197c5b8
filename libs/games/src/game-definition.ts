import type { CnfFormula, Lit, Model } from '@satfarm/cnf';

import type { JobSolverName } from './job-options.js';

/** The games satfarm knows, as named on the command line and in the API. */
export const GAME_IDS = ['cube', 'snake', 'hexahop', 'towers', 'singles', 'tictactoe', 'cnf'] as const;
export type GameId = (typeof GAME_IDS)[number];

/** Encoding choices by name, each a string, number or boolean (the game says which it has). */
export type EncodingChoices = Record<string, string | number | boolean>;

/** Options that change how an instance is encoded (never what it means). */
export interface EncodeOptions {
  /** Per-game encoding choices, e.g. `{ amo: 'commander' }` (`GameDefinition.checkEncoding`). */
  variant?: EncodingChoices;
}

/**
 * Where an input is parsed. A command-line user may name any file their account can read; a
 * service must not let a client read its files, nor learn which exist.
 */
export interface ParseContext {
  /**
   * Absolute paths of the server files an input may name (e.g. Hex-a-Hop's `levels`); a game's
   * own default file is always allowed. Unset: any file (the CLI).
   */
  readableFiles?: ReadonlySet<string>;
}

/** What a game hands the solver for one horizon, and how to read the answer back. */
export interface Encoded<S> {
  formula: CnfFormula;
  /** Reads a solution out of a satisfying model of `formula`. */
  decode(model: Model): S;
  /**
   * A clause that excludes the solution read from `model` (over the variables that define a
   * solution, not auxiliaries), for proving uniqueness by a second solve.
   */
  blockingClause?(model: Model): Lit[];
  /**
   * For lazy encodings: clauses that every solution satisfies but `model` breaks (e.g. a cut
   * for each disconnected region), or undefined when `model` is a solution. The engine adds them
   * and solves again before it decodes.
   */
  refine?(model: Model): Lit[][] | undefined;
  /**
   * For encodings that follow the game only inside a window and let a run that leaves it count
   * as done (an over-approximation: UNSAT is still a proof): undefined when `model` stays inside
   * (a real plan), else the encoding to solve instead (over a wider window).
   */
  widen?(model: Model): Encoded<S> | undefined;
  /**
   * Set on encodings that leave some runs out (their plans are plans, but UNSAT is no proof):
   * the horizon is then unknown, for this reason.
   */
  unprovenUnsat?: string;
}

/** The outcome of checking a solution with the game's own simulator. */
export type Verdict = { ok: true; cost?: number } | { ok: false; reason: string };

/**
 * One cube of a split horizon (`GameDefinition.split`): the plans that begin with `prefix`. It is
 * plain data (JSON), so any process that has the game can solve it at the split horizon less
 * `depth`, from `instance`, as it solves any horizon.
 */
export interface SplitCube<I, S> {
  /** The moves played first, as the game writes a plan of the original instance (not yet a win). */
  prefix: S;
  /** The horizon steps `prefix` takes. */
  depth: number;
  /** Where `prefix` leads: an instance of the same game, to solve from there. */
  instance: I;
}

/** A horizon split by first moves: its cubes, or a plan met on the way (no cube is then needed). */
export interface HorizonSplit<I, S> {
  cubes: SplitCube<I, S>[];
  /** A plan of the original instance within the horizon, found while the prefixes were played. */
  plan?: S;
}

/**
 * The largest horizon a solve may be asked for (`--max-horizon`, `--min-horizon`, Snake's
 * `survive`): the farm's largest `SATFARM_MAX_HORIZON`. A formula is built in memory per horizon,
 * so a far larger one only ends when the process runs out of memory.
 */
export const MAX_HORIZON = 100_000;

/**
 * One game, in the shape every game folder has: parse, lower bound, encode, decode (via
 * `Encoded`), verify with an independent simulator, render for the dashboard.
 *
 * A planning game (`planning: true`) is solved by a horizon sweep: `encode(instance, t)` must be
 * monotone in `t` (a plan of length t is also found at t + 1). Other games are a single solve
 * at horizon 0.
 */
export interface GameDefinition<I = unknown, S = unknown> {
  readonly id: GameId;
  readonly planning: boolean;
  /**
   * Parses the user's input (JSON value or text); throws `InputError` naming the field. A file
   * the input names outside `context.readableFiles` is refused before it is looked at.
   */
  parse(input: unknown, context?: ParseContext): I;
  /** An admissible lower bound on the horizon (0 for non-planning games). */
  lowerBound(instance: I): number;
  /**
   * How the lower bound is proven, where it is: by an exhaustive search whose results the bound
   * reads (the cube: breadth-first distances). `trustBound` then starts a sweep at the bound
   * rather than one below, so an optimum equal to it needs no UNSAT run (docs/games.md).
   */
  readonly boundProof?: string;
  /**
   * Whether the proven lower bound is the optimum: the search behind it found a plan that long
   * (the cube's bound search, docs/games.md#cube). A sweep started at that bound then expects SAT
   * there and runs it with the SAT preset.
   */
  boundIsOptimum?(instance: I): boolean;
  /**
   * A bound that takes a search (the cube's: up to a few hundred milliseconds, docs/games.md#cube).
   * `find` runs it and gives what it found as plain data; `adopt` hands that to this game's bound in
   * another thread of the process, so that `lowerBound`, `boundIsOptimum` and `quickPlan` answer
   * from it without searching again. A farm searches off its event loop this way (docs/farm.md).
   */
  readonly searchedBound?: {
    find(instance: I): unknown;
    adopt(instance: I, found: unknown): void;
  };
  /** The horizon cap used when the user gives none. */
  defaultMaxHorizon(instance: I): number;
  encode(instance: I, horizon: number, options?: EncodeOptions): Encoded<S>;
  /**
   * Checks encoding choices a user names for `encode` (`EncodeOptions.variant`, the CLI's
   * `--encoding`): throws `InputError` naming the field (`encoding.<choice>`) when one is not a
   * choice of this game's encoding or has a value it does not take. A game without it offers none.
   */
  checkEncoding?(variant: EncodingChoices): void;
  /** Checks `solution` against the rules, independently of the encoding. */
  verify(instance: I, solution: S, horizon: number): Verdict;
  /** The plan length of a solution (its horizon), for planning games. */
  planLength?(solution: S): number;
  /**
   * Planning games: reads a plan the user gives for `instance` (`--plan`: the game's moves, or the
   * `solution` of an earlier report); throws `InputError` naming the field (`plan...`). Only its
   * form is checked here: the engine verifies it with the simulator before the sweep starts from it.
   */
  parsePlan?(input: unknown, instance: I): S;
  /**
   * Planning games: a plan found cheaply without a solver (a bounded heuristic search, a fraction of
   * a second to a few seconds), or undefined. The sweep starts with it, verified, as its upper bound
   * and only looks below it; a solve that runs out of time still has it to report. It gives up at
   * `deadline` (a `performance.now()` time), when given.
   */
  quickPlan?(instance: I, deadline?: number): S | undefined;
  /**
   * Planning games whose horizon means "within t steps": splits horizon `horizon` into cubes by
   * the first `depth` moves (1 <= depth <= horizon), for a proof spread over many solver runs.
   * Sound as a proof: whenever the instance has a plan within `horizon`, either `plan` is set or
   * some cube's instance has a plan within `horizon - depth` of its cube, so every cube UNSAT
   * proves the horizon UNSAT (docs/solvers.md#splitting-a-horizon). Each distinct state is one
   * cube, at the fewest moves that reach it; a state no instance can start from (Hex-a-Hop's item
   * in hand) is taken further. Undefined when the split would visit too many states, or the
   * instance is not one the game splits. A game without it does not split.
   */
  split?(instance: I, depth: number, horizon: number): HorizonSplit<I, S> | undefined;
  /**
   * With `split`: a cube's prefix followed by a plan from the cube's instance, as one plan of
   * `instance` (checked afterwards by `verify` against `instance`, never trusted).
   */
  joinPlan?(instance: I, prefix: S, rest: S): S;
  /**
   * Planning games: run the lowest open horizon with the solver's UNSAT preset and the ones above
   * with its SAT preset (`horizonPreset`) unless the user says otherwise. Set where bench/ showed
   * it to help.
   */
  readonly solverPresets?: boolean;
  /**
   * Planning games: the sweep's horizon-choice policy when the user names none (`consecutive` if
   * unset). Set where bench/ showed another one to help.
   */
  readonly defaultPolicy?: string;
  /**
   * The SAT solver when neither the user nor the farm's settings name one (kissat if unset), by its
   * name in @satfarm/solver (its `SolverName`, checked where the engine passes it on). Set where
   * bench/ showed another one to help.
   */
  readonly defaultSolver?: JobSolverName;
  /** Data the dashboard draws (board, frames, net...). */
  render(instance: I, solution: S | undefined): unknown;
  /**
   * One line that tells this instance from others of its game in a list (the scramble, the
   * level's name, the grid's size): the `summary` of jobs and of batch results.
   */
  summarize(instance: I): string;
  /**
   * A solved board as plain text for a terminal (the CLI's human report), from what `render` gave
   * for a solution; absent where the JSON solution reads as well.
   */
  renderText?(view: unknown): string;
}
