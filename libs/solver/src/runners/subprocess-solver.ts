import { writeDimacsFile } from '../process/dimacs-file.js';
import { type ResourceLimits, limitedCommand, validateLimits } from '../process/resource-limits.js';
import { launcherFor } from '../process/process-launcher.js';
import { runSolverProcess } from '../process/solver-process.js';
import { withWorkDir } from '../process/work-dir.js';
import type {
  SatSolver,
  SolveOutcome,
  SolveRequest,
  SolverName,
  SolverRunnerOptions,
} from '../solver.types.js';
import { judgeRun } from '../verdict.js';
import type { SolverDialect } from './solver-dialect.js';
import { knownVersion, solverVersion } from './solver-version.js';

/**
 * A SAT solver run as a subprocess, one process per `solve()`, in the dialect of a given solver.
 * Each run streams the formula to standard input (or to a file in a per-run work directory, for a
 * solver that needs one), reads the output as it comes, and ends with a checked verdict; the work
 * directory is removed afterwards, whatever happened.
 */
export class SubprocessSolver implements SatSolver {
  readonly name: SolverName;
  private readonly binary: string;
  private readonly limits: ResourceLimits;

  constructor(
    private readonly dialect: SolverDialect,
    private readonly options: SolverRunnerOptions = {},
  ) {
    this.name = dialect.name;
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
    if (!this.dialect.usesWorkDir) return this.run(req, solver, undefined);
    return withWorkDir(this.options.tmpDir, (dir) => this.run(req, solver, dir));
  }

  private async run(req: SolveRequest, solver: string, workDir: string | undefined): Promise<SolveOutcome> {
    const formulaFile = workDir === undefined ? undefined : this.dialect.formulaFile?.(workDir);
    if (formulaFile !== undefined) {
      try {
        await writeDimacsFile(formulaFile, req.formula.dimacsChunks(), req.signal);
      } catch (err) {
        if (req.signal?.aborted) return this.cancelledBeforeStart();
        throw err;
      }
    }
    const reader = this.dialect.reader(workDir, req.onProgress);
    const solverArgs = this.dialect.args(
      req.preset ?? 'default',
      this.options.extraArgs ?? [],
      workDir,
      req.seed,
    );
    // The launcher ties the solver's life to this process (see ProcessLauncher).
    const { command, args } = limitedCommand(this.binary, solverArgs, this.limits);
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
    return judgeRun({ solver, formula: req.formula, run, claim, limits: this.limits });
  }

  private cancelledBeforeStart(): SolveOutcome {
    const solver = knownVersion(this.dialect, this.binary) ?? this.name;
    return { status: 'cancelled', stats: { solver, wallMs: 0, exitCode: null } };
  }
}
