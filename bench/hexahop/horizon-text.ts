import type { HorizonLine } from '@satfarm/engine';

const tenths = (x: number): number => Math.round(x * 10) / 10;

/**
 * One horizon of a solve report as the bench rows record it: `t:result:seconds`, then `:N calls`
 * where a lazy encoding solved N times, what answered it where no solver did (`:quick plan`), the
 * formula's clauses where a solver ran (`clauses=973572`), and the solver processes' CPU seconds
 * and peak resident MiB (`cpu=12.3s`, `peak=240MiB`) where the launcher measured them.
 */
export function horizonText(h: HorizonLine): string {
  return [
    `${h.t}:${h.result}:${tenths(h.ms / 1000)}`,
    ...(h.rounds === undefined ? [] : [`${h.rounds} calls`]),
    ...(h.by === undefined ? [] : [h.by]),
    ...(h.clauses === undefined ? [] : [`clauses=${h.clauses}`]),
    ...(h.solverCpuMs === undefined ? [] : [`cpu=${tenths(h.solverCpuMs / 1000)}s`]),
    ...(h.solverPeakRssKiB === undefined ? [] : [`peak=${Math.round(h.solverPeakRssKiB / 1024)}MiB`]),
  ].join(':');
}
