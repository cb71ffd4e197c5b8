import { type CnfFormula, Model } from '@satfarm/cnf';

import type { ClaimedAnswer } from './output/claimed-answer.js';
import type { ResourceLimits } from './process/resource-limits.js';
import type { SolverProcessResult } from './process/solver-process.js';
import { SolverError } from './solver.error.js';
import type { SolveOutcome, SolverStats } from './solver.types.js';

/** Exit codes of the SAT-competition convention, also used by minisat. */
const EXIT_SAT = 10;
const EXIT_UNSAT = 20;
const EXIT_UNKNOWN = 0;

const OUT_OF_MEMORY = /out[- ]of[- ]memory|bad_alloc|cannot allocate memory/i;

/** The inputs of a verdict on one finished run. */
export interface VerdictInput {
  solver: string;
  formula: CnfFormula;
  run: SolverProcessResult;
  claim: ClaimedAnswer;
  limits: ResourceLimits;
}

/**
 * Decides the outcome of a finished run, trusting nothing on its own: the exit code must agree
 * with the printed result (10 with SATISFIABLE, 20 with UNSATISFIABLE, 0 with UNKNOWN), and a
 * model must be complete, consistent, within the formula's variables and satisfy every clause.
 * Anything else throws `SolverError`. A run stopped by its timeout or a cancel counts as such
 * unless it had already answered.
 */
export function judgeRun({ solver, formula, run, claim, limits }: VerdictInput): SolveOutcome {
  const stats = statsOf(solver, run, claim);
  const answered = run.exitCode === EXIT_SAT || run.exitCode === EXIT_UNSAT;
  if (run.stoppedBy !== undefined && !answered) {
    return run.stoppedBy === 'timeout'
      ? { status: 'unknown', reason: 'timeout', stats }
      : { status: 'cancelled', stats };
  }
  if (hitLimit(run, limits)) return { status: 'unknown', reason: 'limit', stats };
  // The proof reached its cap (RLIMIT_FSIZE): the kernel ended the solver.
  if (limits.fileBytes !== undefined && run.signal === 'SIGXFSZ')
    return { status: 'unknown', reason: 'proof-limit', stats };
  if (run.signal !== null)
    throw new SolverError('crashed', solver, `ended by ${run.signal}${stderrNote(run)}`);
  if (run.exitCode !== EXIT_SAT && run.exitCode !== EXIT_UNSAT && run.exitCode !== EXIT_UNKNOWN) {
    throw new SolverError('crashed', solver, `exited with code ${String(run.exitCode)}${stderrNote(run)}`);
  }
  if (claim.problem !== undefined) throw new SolverError('bad-output', solver, claim.problem);
  if (claim.status === undefined) {
    throw new SolverError('bad-output', solver, `exited with code ${run.exitCode} without a result line`);
  }
  const expected = { sat: EXIT_SAT, unsat: EXIT_UNSAT, unknown: EXIT_UNKNOWN }[claim.status];
  if (run.exitCode !== expected) {
    throw new SolverError(
      'exit-code-mismatch',
      solver,
      `reported '${claim.status}' but exited with code ${run.exitCode} (expected ${expected})`,
    );
  }
  switch (claim.status) {
    case 'sat':
      return { status: 'sat', model: checkedModel(solver, formula, claim), stats };
    case 'unsat':
      return { status: 'unsat', stats };
    case 'unknown': {
      const limited = limits.cpuSeconds !== undefined || limits.memoryMiB !== undefined;
      return { status: 'unknown', reason: limited ? 'limit' : 'solver-unknown', stats };
    }
  }
}

function statsOf(solver: string, run: SolverProcessResult, claim: ClaimedAnswer): SolverStats {
  const stats: SolverStats = { solver, wallMs: Math.round(run.wallMs), exitCode: run.exitCode };
  const conflicts = claim.counters.conflicts ?? claim.lastConflicts;
  if (conflicts !== undefined) stats.conflicts = conflicts;
  if (claim.counters.decisions !== undefined) stats.decisions = claim.counters.decisions;
  if (claim.counters.propagations !== undefined) stats.propagations = claim.counters.propagations;
  if (run.usage !== undefined) {
    stats.peakRssKiB = run.usage.peakRssKiB;
    stats.cpuMs = run.usage.cpuMs;
  }
  return stats;
}

/**
 * Whether a resource limit ended the run: SIGXCPU at the soft CPU limit, SIGKILL (not ours) at
 * the hard one, or an out-of-memory message under an address-space limit.
 */
function hitLimit(run: SolverProcessResult, limits: ResourceLimits): boolean {
  if (limits.cpuSeconds !== undefined && run.stoppedBy === undefined) {
    if (run.signal === 'SIGXCPU' || run.signal === 'SIGKILL') return true;
  }
  return limits.memoryMiB !== undefined && OUT_OF_MEMORY.test(run.stderr);
}

function checkedModel(solver: string, formula: CnfFormula, claim: ClaimedAnswer): Model {
  if (!claim.modelClosed)
    throw new SolverError('bad-output', solver, 'the model is missing or not closed by 0');
  const seen = new Int8Array(formula.numVars + 1);
  for (const lit of claim.literals) {
    const v = Math.abs(lit);
    if (v > formula.numVars) {
      throw new SolverError(
        'bad-output',
        solver,
        `model literal ${lit} exceeds the formula's ${formula.numVars} variables`,
      );
    }
    const sign = lit > 0 ? 1 : -1;
    if (seen[v] === -sign)
      throw new SolverError('bad-output', solver, `the model assigns variable ${v} both ways`);
    seen[v] = sign;
  }
  const model = new Model(formula.numVars, claim.literals);
  const falsified = model.firstFalsifiedClause(formula);
  if (falsified >= 0) {
    throw new SolverError('invalid-model', solver, `the model falsifies clause ${falsified} of the formula`);
  }
  return model;
}

function stderrNote(run: SolverProcessResult): string {
  const tail = run.stderr.trim().split('\n').slice(-3).join(' | ');
  return tail === '' ? '' : `: ${tail}`;
}
