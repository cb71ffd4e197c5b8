/**
 * The solver configuration that suits a horizon, given the bounds when it starts: the lowest open
 * horizon is the likeliest to be UNSAT (every horizon below it is), so it runs with the solver's
 * UNSAT preset; the horizons above it are the likeliest to be SAT, so they run with the SAT preset
 * (the cube's figures: bench/README.md#cube-latest-figures). `satFrom`: the smallest horizon
 * known to be SAT before any run (a proven bound that is the optimum), SAT from there on.
 */
export type HorizonPreset = 'sat' | 'unsat';

export function horizonPreset(t: number, lower: number, satFrom?: number): HorizonPreset {
  return t <= lower && (satFrom === undefined || t < satFrom) ? 'unsat' : 'sat';
}
