import { stat } from 'node:fs/promises';
import { join } from 'node:path';

import { checkDratProof } from '../proof/drat-check.js';
import { writeDimacsFile } from '../process/dimacs-file.js';
import { type ResourceLimits, limitedCommand, validateLimits } from '../process/resource-limits.js';
import { launcherFor } from '../process/process-launcher.js';
import { runSolverProcess } from '../process/solver-process.js';
import { withWorkDir } from '../process/work-dir.js';
import type {
  ProofFigures,
  SatSolver,
  SolveOutcome,
  SolveRequest,
  SolverName,
  SolverRunnerOptions,
} from '../solver.types.js';
import { judgeRun } from '../verdict.js';
import type { SolverDialect } from './solver-dialect.js';
import { knownVersion, solverVersion } from './solver-version.js';

/** Where a certified run puts its formula and its proof, in its work directory. */
const CERTIFIED_FORMULA = 'formula.cnf';
const PROOF_FILE = 'proof.drat';

/**
 * A SAT solver run as a subprocess, one process per `solve()`, in the dialect of a given solver.
 * Each run streams the formula to standard input (or to a file in a per-run work directory, for a
 * solver that needs one), reads the output as it comes, and ends with a checked verdict; the work
 * directory is removed afterwards, whatever happened. A certified run (`SolveRequest.proof`)
 * writes the formula and the solver's DRAT proof to its work directory and has drat-trim check
 * the proof of an UNSAT answer (docs/solvers.md#certified-answers).
 */
export class SubprocessSolver implements SatSolver {
  readonly name: SolverName;
  readonly proofs: boolean;
  private readonly binary: string;
  private readonly limits: ResourceLimits;

  constructor(
    private readonly dialect: SolverDialect,
    private readonly options: SolverRunnerOptions = {},
  ) {
    this.name = dialect.name;
    this.proofs = dialect.proofArgs !== undefined;
    this.binary = options.binary ?? dialect.name;
    this.limits = { cpuSeconds: options.cpuSeconds, memoryMiB: options.memoryMiB };
    validateLimits(this.limits);
  }

  version(): Promise<string> {
    return solverVersion(this.dialect, this.binary);
  }

  async solve(req: SolveRequest): Promise<SolveOutcome> {
    if (req.signal?.aborted) return this.cancelledBeforeStart();
    const solver = await this.version();
    if (req.signal?.aborted) return this.cancelledBeforeStart();
    if (req.proof !== undefined)
      return withWorkDir(this.options.tmpDir, (dir) => this.certified(req, solver, dir));
    if (!this.dialect.usesWorkDir) return this.run(req, solver, undefined);
    return withWorkDir(this.options.tmpDir, (dir) => this.run(req, solver, dir));
  }

  /** One solver run; with `proof`, the formula goes to its file and the proof is written beside it. */
  private async run(
    req: SolveRequest,
    solver: string,
    workDir: string | undefined,
    proof?: { formulaFile: string; proofFile: string; maxBytes: number },
  ): Promise<SolveOutcome> {
    const formulaFile =
      proof?.formulaFile ?? (workDir === undefined ? undefined : this.dialect.formulaFile?.(workDir));
    if (formulaFile !== undefined) {
      try {
        await writeDimacsFile(formulaFile, req.formula.dimacsChunks(), req.signal);
      } catch (err) {
        if (req.signal?.aborted) return this.cancelledBeforeStart();
        throw err;
      }
    }
    const reader = this.dialect.reader(workDir, req.onProgress);
    const solverArgs = [
      ...this.dialect.args(req.preset ?? 'default', this.options.extraArgs ?? [], workDir, req.seed),
      ...(proof === undefined ? [] : this.dialect.proofArgs!(proof.formulaFile, proof.proofFile)),
    ];
    // A proof's cap is a file-size limit: the kernel stops the solver when the proof reaches it.
    const limits = proof === undefined ? this.limits : { ...this.limits, fileBytes: proof.maxBytes };
    // The launcher ties the solver's life to this process (see ProcessLauncher).
    const { command, args } = limitedCommand(this.binary, solverArgs, limits);
    const run = await runSolverProcess({
      solver,
      command,
      args,
      input: formulaFile === undefined ? req.formula.dimacsChunks() : undefined,
      signal: req.signal,
      timeoutMs: req.timeoutMs,
      termGraceMs: this.options.termGraceMs,
      launcher: launcherFor(this.options.launch ?? 'host'),
      onStdoutLine: (line) => reader.stdoutLine(line),
    });
    const claim = await reader.finish();
    return judgeRun({ solver, formula: req.formula, run, claim, limits });
  }

  /**
   * A certified run: the formula to a file, the solver with `<formula> <proof>` under a file-size
   * limit of the proof's cap, then drat-trim on an UNSAT answer, within what is left of the run's
   * timeout. The work directory (formula and proof) goes when this settles, whatever happened.
   */
  private async certified(req: SolveRequest, solver: string, workDir: string): Promise<SolveOutcome> {
    const proof = req.proof!;
    if (this.dialect.proofArgs === undefined) {
      throw new RangeError(`${solver} writes no proofs, so its answers cannot be certified`);
    }
    const started = performance.now();
    const formulaFile = join(workDir, CERTIFIED_FORMULA);
    const proofFile = join(workDir, PROOF_FILE);
    const outcome = await this.run(req, solver, workDir, {
      formulaFile,
      proofFile,
      maxBytes: proof.maxBytes,
    });
    const bytes = await stat(proofFile).then(
      (s) => s.size,
      () => 0,
    );
    if (outcome.status === 'unknown' && outcome.reason === 'proof-limit') {
      return { ...outcome, stats: { ...outcome.stats, proof: { bytes, checkMs: 0, result: 'limit' } } };
    }
    if (outcome.status !== 'unsat') return outcome;
    // The check counts in the run's time: it gets what the solver left of the timeout.
    const left =
      req.timeoutMs === undefined ? undefined : Math.max(1, req.timeoutMs - (performance.now() - started));
    const check = await checkDratProof({
      formulaFile,
      proofFile,
      ...(proof.checker === undefined ? {} : { checker: proof.checker }),
      signal: req.signal,
      timeoutMs: left,
      launcher: launcherFor(this.options.launch ?? 'host'),
    });
    const figures = (result: ProofFigures['result']): ProofFigures => ({ bytes, checkMs: check.ms, result });
    switch (check.verdict) {
      case 'verified':
        return { status: 'unsat', stats: { ...outcome.stats, proof: figures('verified') } };
      case 'rejected':
        return {
          status: 'unknown',
          reason: 'proof-rejected',
          stats: { ...outcome.stats, proof: figures('rejected') },
        };
      case 'error':
        return {
          status: 'unknown',
          reason: 'proof-error',
          stats: { ...outcome.stats, proof: figures('error') },
        };
      case 'timeout':
        return { status: 'unknown', reason: 'timeout', stats: outcome.stats };
      case 'cancelled':
        return { status: 'cancelled', stats: outcome.stats };
    }
  }

  private cancelledBeforeStart(): SolveOutcome {
    const solver = knownVersion(this.dialect, this.binary) ?? this.name;
    return { status: 'cancelled', stats: { solver, wallMs: 0, exitCode: null } };
  }
}
