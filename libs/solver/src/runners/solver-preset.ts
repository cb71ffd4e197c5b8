import type { SolverPreset } from '../solver.types.js';

/**
 * Command-line options of a preset for kissat and cadical, which spell them alike: `--sat`
 * (kissat 4.0.2: `--target=2 --restartint=50`) and `--unsat` (kissat: `--stable=0`).
 */
export function presetArgs(preset: SolverPreset): string[] {
  switch (preset) {
    case 'sat':
      return ['--sat'];
    case 'unsat':
      return ['--unsat'];
    case 'default':
      return [];
  }
}

/** kissat's and cadical's seed option; none for the default seed. */
export function seedArgs(seed: number | undefined): string[] {
  return seed === undefined || seed === 0 ? [] : [`--seed=${seed}`];
}
