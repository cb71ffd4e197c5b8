import {
  choiceHorizon,
  GAVE_WAY,
  gaveWay,
  type HorizonPolicy,
  type HorizonPolicyView,
} from './horizon-policy.js';
import { ContradictoryResultError } from './sweep.error.js';

/**
 * Life of one horizon: `queued` (handed to a queue, not picked up yet), `running`, then one of the
 * answers `sat`, `unsat`, `unknown` (a per-horizon solver limit), or `cancelled`.
 */
export type HorizonState = 'queued' | 'running' | 'sat' | 'unsat' | 'unknown' | 'cancelled';

/** What a solver run says about one horizon. */
export type HorizonVerdict = 'sat' | 'unsat' | 'unknown';

/** One horizon of a sweep. Times are in the caller's clock (epoch ms for a persisted state). */
export interface HorizonRecord {
  readonly t: number;
  readonly state: HorizonState;
  readonly startedAt?: number;
  /** Run time, set when the horizon is answered or cancelled. */
  readonly ms?: number;
  /** Length of the plan found (`sat` only); at most `t`. */
  readonly planLength?: number;
  /** Why no answer (`unknown` only), or `gave way` (see `GAVE_WAY`). */
  readonly reason?: string;
  /** The run's time limit when it started as a patient probe (see `HorizonRun`). */
  readonly limitMs?: number;
  /** Which run of `t` this is, when it runs again after giving way (absent: the first). */
  readonly run?: number;
  /** What gave the answer when no solver run did (e.g. a search before the sweep). */
  readonly by?: string;
}

/**
 * The whole state of a horizon sweep as plain JSON data: a farm coordinator stores it (e.g. in
 * Redis) between results and continues after a restart with `parseSweepState`. Every function
 * below returns a new state and leaves its argument untouched.
 *
 * `lower` is the largest horizon proven UNSAT plus one (initially the game's admissible lower
 * bound); `upper` the length of the shortest plan found. Horizons are only chosen inside the open
 * window [`lower`, min(`upper` - 1, `max`)].
 */
export interface SweepState {
  readonly version: 1;
  readonly policy: string;
  readonly parallelism: number;
  readonly max: number;
  readonly initialLower: number;
  readonly lower: number;
  readonly upper?: number;
  /** One record per horizon ever queued, started or answered, sorted by `t`. */
  readonly horizons: readonly HorizonRecord[];
  /** Time limit of a patient probe's first run (see `HorizonRun`); none when absent. */
  readonly patienceMs?: number;
  /**
   * Set while `lower` comes from a caller's hint (`SweepInit.hint`) that no answer has proven yet: the
   * proven lower bound beneath it. An UNSAT at or above `lower` proves the hint and clears it; a
   * plan at or below `lower` disproves it, and `lower` falls back to what is proven.
   */
  readonly floor?: number;
}

/**
 * `running` while horizons remain to decide; `optimal` when `lower == upper`; `unsatisfiable` when
 * `lower > max` (no plan within `max`); `unknown` when nothing is in flight and every horizon left
 * in the open window was answered `unknown`.
 */
export type SweepStatus = 'running' | 'optimal' | 'unsatisfiable' | 'unknown';

export interface SweepBounds {
  lower: number;
  upper?: number;
}

export interface SweepInit {
  /** Admissible lower bound: no plan is shorter. */
  lower: number;
  /** Largest horizon to try. */
  max: number;
  /** Horizons in flight at once. */
  parallelism: number;
  /** How horizons are chosen: the state stores its name; pass the policy to `nextHorizons` too. */
  policy: HorizonPolicy;
  /**
   * How long a horizon that the policy marks patient (a probe above the climb) may run before it
   * gives way to another; a run that gave way gets twice its time when started again. No limit
   * when absent.
   */
  patienceMs?: number;
  /**
   * A caller's claim that no plan is shorter than `hint` (e.g. a bound an earlier run proved),
   * never trusted: the window opens at `hint - 1`, whose UNSAT answer proves the claim, and a plan
   * at or below `hint - 1` reopens the window down to `lower`. So a reported optimum is still
   * backed by an UNSAT answer or by `lower`. No effect unless `hint - 1` is above `lower`.
   */
  hint?: number;
}

/** Extra facts about a result. */
export interface ResultDetails {
  /** When the result arrived, in the clock of `markStarted`, to compute `ms`. */
  at?: number;
  /** Run time measured elsewhere (e.g. by a worker); wins over `at`. */
  ms?: number;
  /**
   * SAT only: the plan's own length when it reaches the goal before `t` (default `t`). Since the
   * encoding is monotone, the plan is also a plan for every horizon from its length up, so
   * `upper` drops to the length.
   */
  planLength?: number;
  /** UNKNOWN only: why there is no answer. */
  reason?: string;
  /** What gave the answer when no solver run did (see `HorizonRecord.by`). */
  by?: string;
}

export interface RecordedResult {
  state: SweepState;
  /** Horizons that were queued or running and are now dominated: abort them. */
  cancel: number[];
  boundsChanged: boolean;
  /** The answer was a patient probe's `unknown`: the horizon gave way (it is `cancelled` now). */
  gaveWay?: true;
}

/** The patience in ms for a number of seconds (as the CLI and the API take it). */
export function patienceMsOf(seconds: number): number {
  return Math.max(1, Math.round(seconds * 1000));
}

/** A new sweep. Throws `RangeError` naming a bad field. */
export function initSweepState(init: SweepInit): SweepState {
  requireInteger('lower', init.lower, 0);
  requireInteger('max', init.max, 0);
  requireInteger('parallelism', init.parallelism, 1);
  if (init.patienceMs !== undefined) requireInteger('patienceMs', init.patienceMs, 1);
  if (init.hint !== undefined) requireInteger('hint', init.hint, 0);
  if (init.hint !== undefined && init.hint > init.max) {
    throw new RangeError(`hint: ${init.hint} is above max ${init.max}`);
  }
  const policy = init.policy;
  const start = hintedStart(init.lower, init.hint);
  const hinted = start !== undefined;
  const lower = start ?? init.lower;
  return {
    version: 1,
    policy: policy.name,
    parallelism: init.parallelism,
    max: init.max,
    initialLower: lower,
    lower,
    horizons: [],
    ...(init.patienceMs === undefined ? {} : { patienceMs: init.patienceMs }),
    ...(hinted ? { floor: init.lower } : {}),
  };
}

/**
 * Where a hint opens the window: one below it, when that is above `lower`; otherwise the hint has
 * no effect and this is undefined (see `SweepInit.hint`).
 */
export function hintedStart(lower: number, hint: number | undefined): number | undefined {
  return hint !== undefined && hint - 1 > lower ? hint - 1 : undefined;
}

/** See `SweepStatus`. */
export function sweepStatus(state: SweepState): SweepStatus {
  if (state.upper !== undefined && state.lower >= state.upper) return 'optimal';
  if (state.lower > state.max) return 'unsatisfiable';
  if (inFlightHorizons(state).length > 0) return 'running';
  const high = highestOpen(state);
  for (let t = state.lower; t <= high; t++) {
    if (isFree(state, t)) return 'running';
  }
  return 'unknown';
}

/** The proven bounds: below a hint not proven yet, the `floor` (see `SweepState.floor`). */
export function sweepBounds(state: SweepState): SweepBounds {
  const lower = state.floor ?? state.lower;
  return state.upper === undefined ? { lower } : { lower, upper: state.upper };
}

export function horizonRecord(state: SweepState, t: number): HorizonRecord | undefined {
  return state.horizons.find((h) => h.t === t);
}

/** Horizons queued or running, ascending. */
export function inFlightHorizons(state: SweepState): number[] {
  return state.horizons.filter((h) => h.state === 'queued' || h.state === 'running').map((h) => h.t);
}

/**
 * Whether `t` may be queued or started now: inside the open window and neither answered nor
 * already in flight. A farm coordinator checks this before acting on a late "job started".
 */
export function canStart(state: SweepState, t: number): boolean {
  return isFree(state, t);
}

/**
 * Horizons to start now so that `parallelism` are in flight, chosen by `policy` (the one the state
 * was made with, `SweepState.policy` names it), in the order to start them. Empty when the sweep is decided or the slots are full.
 * Calling it again without marking the horizons started returns the same horizons.
 */
export function nextHorizons(state: SweepState, policy: HorizonPolicy): number[] {
  return nextRuns(state, policy).map((run) => run.t);
}

/** A horizon to start, with its run's time limit when it is a patient probe. */
export interface HorizonRun {
  t: number;
  /**
   * With the sweep's `patienceMs` set and `t` a horizon the policy marks patient: the patience, or
   * twice the time `t` ran before if it already gave way. A limited run that ends `unknown` (the
   * runner stops it at the limit) gave way: see `recordResult`. Pass it to `markQueued` or
   * `markStarted`.
   */
  limitMs?: number;
}

/** `nextHorizons` with each run's time limit, all decided on the same state. */
export function nextRuns(state: SweepState, policy: HorizonPolicy): HorizonRun[] {
  if (sweepStatus(state) !== 'running') return [];
  const slots = state.parallelism - inFlightHorizons(state).length;
  if (slots <= 0) return [];
  const choices = policy.choose(policyView(state, slots));
  const chosen = choices.map(choiceHorizon);
  const seen = new Set<number>();
  for (const t of chosen) {
    if (!isFree(state, t) || seen.has(t)) {
      throw new Error(`horizon policy "${policy.name}" chose ${t}, which is not a free horizon or repeats`);
    }
    seen.add(t);
  }
  if (chosen.length > slots) {
    throw new Error(`horizon policy "${policy.name}" chose ${chosen.length} horizons for ${slots} slots`);
  }
  const patience = state.patienceMs;
  return choices.map((choice) => {
    const t = choiceHorizon(choice);
    if (patience === undefined || typeof choice === 'number') return { t };
    const before = horizonRecord(state, t);
    const ranFor = gaveWay(before) ? 2 * Math.round(before?.ms ?? 0) : 0;
    return { t, limitMs: Math.max(patience, ranFor) };
  });
}

/**
 * `t` was handed to a queue (with its run's time limit, see `HorizonRun`). Throws if `t` cannot
 * start (see `canStart`).
 */
export function markQueued(state: SweepState, t: number, limitMs?: number): SweepState {
  const record = horizonRecord(state, t);
  if (record?.state === 'queued' || record?.state === 'running') return state;
  requireStartable(state, t, 'queued');
  return withRecord(state, withLimit({ t, state: 'queued', ...nextRun(record) }, limitMs));
}

/**
 * `t` started running at `at`. Idempotent for a running horizon (a repeated "started" report);
 * throws if `t` is answered, dominated or outside the open window.
 */
export function markStarted(state: SweepState, t: number, at?: number, limitMs?: number): SweepState {
  const record = horizonRecord(state, t);
  if (record?.state === 'running') return state;
  if (record?.state !== 'queued') requireStartable(state, t, 'started');
  const queued = record?.state === 'queued';
  const limit = queued ? record.limitMs : limitMs;
  const run = queued ? (record.run === undefined ? {} : { run: record.run }) : nextRun(record);
  return withRecord(
    state,
    withLimit({ t, state: 'running', ...(at === undefined ? {} : { startedAt: at }), ...run }, limit),
  );
}

function withLimit(record: HorizonRecord, limitMs: number | undefined): HorizonRecord {
  return limitMs === undefined ? record : { ...record, limitMs };
}

/** The run number of a new run after `before`: the next one after a run that gave way. */
function nextRun(before: HorizonRecord | undefined): { run?: number } {
  return gaveWay(before) ? { run: (before?.run ?? 1) + 1 } : {};
}

/**
 * `t` was cancelled from outside (timeout, abort, a lost job). A cancelled horizon still inside the
 * open window may be chosen again; dominated ones never are, since the window only shrinks. No
 * change unless `t` is queued or running.
 */
export function markCancelled(state: SweepState, t: number, at?: number): SweepState {
  const record = horizonRecord(state, t);
  if (record === undefined || (record.state !== 'queued' && record.state !== 'running')) return state;
  return withRecord(state, cancelled(record, at));
}

/**
 * Applies a horizon's answer: SAT lowers `upper`, UNSAT raises `lower`, and the horizons they
 * dominate are cancelled; an `unknown` retires T unless T gave way under a time limit (a patient
 * probe). An answer racing a cancel still counts. Throws `ContradictoryResultError` on an answer
 * that contradicts the bounds, which a monotone encoding and an admissible lower bound never give
 * (docs/cli.md#the-horizon-sweep).
 */
export function recordResult(
  state: SweepState,
  t: number,
  result: HorizonVerdict,
  details: ResultDetails = {},
): RecordedResult {
  requireInteger('t', t, 0);
  if (t > state.max) throw new RangeError(`t: ${t} is above max ${state.max}`);
  const previous = horizonRecord(state, t);
  const unchanged: RecordedResult = { state, cancel: [], boundsChanged: false };
  if (previous?.state === 'sat' || previous?.state === 'unsat') {
    if (result === previous.state || result === 'unknown') return unchanged;
    throw new ContradictoryResultError(t, `answered ${result} after ${previous.state}`);
  }
  if (result === 'unknown' && previous?.state === 'cancelled') return unchanged;
  if (result === 'unknown' && previous?.limitMs !== undefined) {
    // A patient probe found no answer in its time: it makes way and stays free to run again.
    const ms = details.ms ?? elapsed(previous, details.at);
    const gave: HorizonRecord = {
      ...previous,
      state: 'cancelled',
      reason: GAVE_WAY,
      ...(ms === undefined ? {} : { ms }),
    };
    return { state: withRecord(state, gave), cancel: [], boundsChanged: false, gaveWay: true };
  }

  let { lower, upper, floor, initialLower } = state;
  let record: HorizonRecord = { t, state: result };
  if (previous?.startedAt !== undefined) record = { ...record, startedAt: previous.startedAt };
  if (previous?.run !== undefined) record = { ...record, run: previous.run };
  const ms = details.ms ?? elapsed(previous, details.at);
  if (ms !== undefined) record = { ...record, ms };
  if (details.by !== undefined) record = { ...record, by: details.by };
  if (result === 'sat') {
    const length = details.planLength ?? t;
    requireInteger('planLength', length, 0);
    if (length > t) throw new RangeError(`planLength: ${length} is longer than the horizon ${t}`);
    if (floor !== undefined && length <= lower) {
      // The hint was too high (or no UNSAT backs it yet): fall back to what is proven.
      lower = Math.max(floor, ...state.horizons.filter((h) => h.state === 'unsat').map((h) => h.t + 1));
      initialLower = Math.min(initialLower, lower);
      floor = undefined;
    }
    if (length < lower) {
      throw new ContradictoryResultError(
        t,
        `a plan of length ${length} exists but no plan shorter than ${lower} should`,
      );
    }
    upper = upper === undefined ? length : Math.min(upper, length);
    record = { ...record, planLength: length };
  } else if (result === 'unsat') {
    if (upper !== undefined && t >= upper) {
      throw new ContradictoryResultError(t, `UNSAT although a plan of length ${upper} exists`);
    }
    if (t >= lower) floor = undefined;
    lower = Math.max(lower, t + 1);
  } else if (details.reason !== undefined) {
    record = { ...record, reason: details.reason };
  }

  const cancel: number[] = [];
  const horizons = upsert(state.horizons, record).map((h) => {
    const inFlight = h.state === 'queued' || h.state === 'running';
    if (h.t === t || !inFlight || (h.t >= lower && (upper === undefined || h.t < upper))) return h;
    cancel.push(h.t);
    return cancelled(h, details.at);
  });
  const { floor: _floor, ...rest } = withoutUpper(state);
  const next: SweepState = {
    ...rest,
    initialLower,
    lower,
    ...(upper === undefined ? {} : { upper }),
    ...(floor === undefined ? {} : { floor }),
    horizons,
  };
  const before = sweepBounds(state);
  const after = sweepBounds(next);
  return { state: next, cancel, boundsChanged: after.lower !== before.lower || after.upper !== before.upper };
}

/**
 * Checks and returns a sweep state read back from storage (`JSON.parse` output). Throws
 * `RangeError` naming the first bad field. The policy's name is kept as it is: the caller, who
 * passes the policy to `nextHorizons`, resolves it.
 */
export function parseSweepState(json: unknown): SweepState {
  const o = objectAt('state', json);
  if (o.version !== 1) throw new RangeError(`version: expected 1, got ${String(o.version)}`);
  if (typeof o.policy !== 'string') throw new RangeError('policy: expected a string');
  const parallelism = integerAt('parallelism', o.parallelism, 1);
  const max = integerAt('max', o.max, 0);
  const initialLower = integerAt('initialLower', o.initialLower, 0);
  const lower = integerAt('lower', o.lower, initialLower);
  const upper = o.upper === undefined ? undefined : integerAt('upper', o.upper, lower);
  if (upper !== undefined && upper > max) throw new RangeError(`upper: ${upper} is above max ${max}`);
  if (!Array.isArray(o.horizons)) throw new RangeError('horizons: expected an array');
  const horizons = o.horizons.map((h: unknown, i) => parseRecord(`horizons[${i}]`, h));
  horizons.forEach((h, i) => {
    const before = horizons[i - 1];
    if (before !== undefined && before.t >= h.t)
      throw new RangeError(`horizons[${i}].t: not in increasing order`);
  });
  const patienceMs = o.patienceMs === undefined ? undefined : integerAt('patienceMs', o.patienceMs, 1);
  const floor = o.floor === undefined ? undefined : integerAt('floor', o.floor, 0);
  if (floor !== undefined && floor >= lower)
    throw new RangeError(`floor: ${floor} is not below lower ${lower}`);
  return {
    version: 1,
    policy: o.policy,
    parallelism,
    max,
    initialLower,
    lower,
    ...(upper === undefined ? {} : { upper }),
    horizons,
    ...(patienceMs === undefined ? {} : { patienceMs }),
    ...(floor === undefined ? {} : { floor }),
  };
}

const horizonStates: readonly HorizonState[] = ['queued', 'running', 'sat', 'unsat', 'unknown', 'cancelled'];

function parseRecord(field: string, json: unknown): HorizonRecord {
  const o = objectAt(field, json);
  const t = integerAt(`${field}.t`, o.t, 0);
  const state = horizonStates.find((s) => s === o.state);
  if (state === undefined)
    throw new RangeError(`${field}.state: expected one of ${horizonStates.join(', ')}`);
  let record: HorizonRecord = { t, state };
  if (o.startedAt !== undefined)
    record = { ...record, startedAt: numberAt(`${field}.startedAt`, o.startedAt) };
  if (o.ms !== undefined) record = { ...record, ms: numberAt(`${field}.ms`, o.ms) };
  if (o.planLength !== undefined)
    record = { ...record, planLength: integerAt(`${field}.planLength`, o.planLength, 0) };
  if (o.reason !== undefined) {
    if (typeof o.reason !== 'string') throw new RangeError(`${field}.reason: expected a string`);
    record = { ...record, reason: o.reason };
  }
  if (o.limitMs !== undefined) record = { ...record, limitMs: integerAt(`${field}.limitMs`, o.limitMs, 1) };
  if (o.run !== undefined) record = { ...record, run: integerAt(`${field}.run`, o.run, 2) };
  if (o.by !== undefined) {
    if (typeof o.by !== 'string') throw new RangeError(`${field}.by: expected a string`);
    record = { ...record, by: o.by };
  }
  return record;
}

function objectAt(field: string, json: unknown): Record<string, unknown> {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new RangeError(`${field}: expected an object`);
  }
  return json as Record<string, unknown>;
}

function numberAt(field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new RangeError(`${field}: expected a finite number`);
  return value;
}

function integerAt(field: string, value: unknown, min: number): number {
  requireInteger(field, value, min);
  return value as number;
}

function requireInteger(field: string, value: unknown, min: number): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new RangeError(`${field}: expected an integer >= ${min}, got ${String(value)}`);
  }
}

function requireStartable(state: SweepState, t: number, what: string): void {
  if (!isFree(state, t)) {
    const record = horizonRecord(state, t);
    throw new Error(
      `horizon ${t} cannot be ${what}: it is ${record?.state ?? 'new'} and the open window is [${state.lower}, ${highestOpen(state)}]`,
    );
  }
}

function highestOpen(state: SweepState): number {
  return state.upper === undefined ? state.max : Math.min(state.upper - 1, state.max);
}

function isFree(state: SweepState, t: number): boolean {
  if (!Number.isInteger(t) || t < state.lower || t > highestOpen(state)) return false;
  const record = horizonRecord(state, t);
  return record === undefined || record.state === 'cancelled';
}

function policyView(state: SweepState, slots: number): HorizonPolicyView {
  const high = highestOpen(state);
  return {
    lower: state.lower,
    upper: state.upper,
    max: state.max,
    initialLower: state.initialLower,
    high,
    patienceMs: state.patienceMs,
    slots,
    horizons: state.horizons,
    stateOf: (t) => horizonRecord(state, t)?.state,
    isFree: (t) => isFree(state, t),
    freeFrom: (from, count, exclude = []) => {
      const found: number[] = [];
      for (let t = Math.max(from, state.lower); t <= high && found.length < count; t++) {
        if (isFree(state, t) && !exclude.includes(t)) found.push(t);
      }
      return found;
    },
  };
}

function elapsed(record: HorizonRecord | undefined, at: number | undefined): number | undefined {
  return record?.startedAt === undefined || at === undefined ? undefined : Math.max(0, at - record.startedAt);
}

function cancelled(record: HorizonRecord, at: number | undefined): HorizonRecord {
  const ms = elapsed(record, at);
  return { ...record, state: 'cancelled', ...(ms === undefined ? {} : { ms }) };
}

function withRecord(state: SweepState, record: HorizonRecord): SweepState {
  return { ...state, horizons: upsert(state.horizons, record) };
}

function upsert(horizons: readonly HorizonRecord[], record: HorizonRecord): HorizonRecord[] {
  const rest = horizons.filter((h) => h.t !== record.t);
  const at = rest.findIndex((h) => h.t > record.t);
  return at === -1 ? [...rest, record] : [...rest.slice(0, at), record, ...rest.slice(at)];
}

function withoutUpper(state: SweepState): SweepState {
  const { upper: _upper, ...rest } = state;
  return rest;
}
