import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { type FileHandle, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import { Command } from 'commander';

import { FormulaBuildStopped } from '@satfarm/cnf';
import {
  checkHorizonRequest,
  defaultMaxFormulaBytes,
  type EncodedHorizon,
  encodeHorizon,
  ExitCode,
  type HorizonRequest,
  SATFARM_VERSION,
} from '@satfarm/engine';
import { type EncodingChoices, gameById, type GameDefinition, InputError } from '@satfarm/games';

import { nonNegativeInt, positiveInt } from './cli-options.js';
import { encodeHeader } from './encode-header.js';
import { flagOptions } from './job-option-flags.js';
import { readInput } from './read-input.js';

interface EncodeFlags {
  input?: string;
  horizon?: number;
  output?: string;
  encoding?: EncodingChoices;
  maxFormulaMib?: number;
}

/**
 * `satfarm encode <game>`: writes the DIMACS formula `solve` would give a solver, at one horizon of
 * a planning game or the one formula of a single-solve game, after a comment header that says what
 * it is and what its answers mean (docs/cli.md#encode). To `--output` through a temporary file
 * renamed at the end, so that an error leaves no file; else streamed to stdout.
 */
export function encodeCommand(): Command {
  const command = new Command('encode')
    .description("write one horizon's formula as DIMACS, as solve gives it to a solver")
    .argument('<game>', 'cube, snake, hexahop, towers, singles, tictactoe or cnf')
    .option('-i, --input <file>', 'instance file, - for standard input, or inline JSON')
    .option(
      '--horizon <t>',
      'planning games (required): the horizon to encode; SAT means a plan of at most t moves',
      nonNegativeInt,
    )
    .option('-o, --output <file>', 'write the formula here (default: standard output)');
  for (const option of flagOptions('encoding', 'solve')) command.addOption(option);
  return command
    .option(
      '--max-formula-mib <n>',
      "most memory the formula may take, MiB (4 bytes a literal; default: an eighth of the memory this process may use, as solve's with --parallel 1)",
      positiveInt,
    )
    .action(async (gameName: string, flags: EncodeFlags) => {
      const game = gameById(gameName);
      const request = {
        ...(flags.horizon === undefined ? {} : { horizon: flags.horizon }),
        ...(flags.encoding === undefined ? {} : { encoding: flags.encoding }),
      };
      // Refused before the instance is read, naming the flag as typed.
      checkHorizonRequest(game, request, flagOf);
      const output = flags.output === undefined ? undefined : await TempOutput.open(flags.output);
      const interrupted = (): void => {
        output?.discardNow();
        process.exit(ExitCode.unknown);
      };
      process.once('SIGINT', interrupted);
      process.once('SIGTERM', interrupted);
      try {
        const input = await readInput(flags.input);
        const instance = game.parse(input);
        const maxFormulaBytes =
          flags.maxFormulaMib === undefined ? defaultMaxFormulaBytes(1) : flags.maxFormulaMib * 2 ** 20;
        const built = encodeWithinLimit(game, instance, request, maxFormulaBytes);
        const header = encodeHeader({
          version: SATFARM_VERSION,
          game: game.id,
          // Text (DIMACS, a game ID) as the game reads it: the ends' blanks and newlines mean nothing.
          input: typeof input === 'string' ? input.trim() : input,
          summary: game.summarize(instance),
          ...(game.planning ? { horizon: built.horizon } : {}),
          ...(flags.encoding === undefined ? {} : { encoding: flags.encoding }),
          meaning: built.meaning,
        });
        const chunks = (function* (): Generator<string> {
          yield header;
          yield* built.encoded.formula.dimacsChunks();
        })();
        if (output === undefined) await writeChunks(process.stdout, chunks);
        else await output.commit(chunks);
      } catch (err) {
        await output?.discard();
        throw err;
      } finally {
        process.off('SIGINT', interrupted);
        process.off('SIGTERM', interrupted);
      }
    });
}

/**
 * `encodeHorizon` within `maxFormulaBytes`: a formula that outgrows it is refused naming
 * `--max-formula-mib` (its build stops there, before it takes the process's memory).
 */
function encodeWithinLimit<I, S>(
  game: GameDefinition<I, S>,
  instance: I,
  request: HorizonRequest,
  maxFormulaBytes: number,
): EncodedHorizon<S> {
  try {
    return encodeHorizon(game, instance, request, { maxFormulaBytes }, flagOf);
  } catch (err) {
    if (!(err instanceof FormulaBuildStopped)) throw err;
    const mib = Math.round(maxFormulaBytes / 2 ** 20);
    throw new InputError(
      '--max-formula-mib',
      game.planning
        ? `the formula outgrows ${mib} MiB (4 bytes a literal) at horizon ${request.horizon}; give a larger limit, or a smaller horizon`
        : `the formula outgrows ${mib} MiB (4 bytes a literal); give a larger limit`,
    );
  }
}

/** The flag that sets a field of the request, as typed. */
function flagOf(field: 'horizon'): string {
  return `--${field}`;
}

/** Writes `chunks` to `out`, one at a time: each waits for the stream to drain when it is full. */
async function writeChunks(out: Writable, chunks: Iterable<string>): Promise<void> {
  for (const chunk of chunks) {
    if (!out.write(chunk)) {
      await new Promise<void>((resolve, reject) => {
        const onError = (err: Error): void => {
          out.off('drain', onDrain);
          reject(err);
        };
        const onDrain = (): void => {
          out.off('error', onError);
          resolve();
        };
        out.once('drain', onDrain);
        out.once('error', onError);
      });
    }
  }
}

/**
 * `--output`'s file, written under a temporary name beside it and renamed to it once whole: a
 * failed or interrupted run leaves neither a partial file nor the temporary one.
 */
class TempOutput {
  private constructor(
    private readonly path: string,
    private readonly tempPath: string,
    private handle: FileHandle | undefined,
  ) {}

  /** Creates the temporary file now, so that an output that cannot be written fails before any work. */
  static async open(path: string): Promise<TempOutput> {
    const tempPath = join(
      dirname(path),
      `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
    );
    try {
      return new TempOutput(path, tempPath, await open(tempPath, 'wx'));
    } catch (err) {
      throw new InputError('--output', `cannot write '${path}' (${codeOf(err)})`);
    }
  }

  /** Writes `chunks` to the temporary file, then renames it to the output's path. */
  async commit(chunks: Iterable<string>): Promise<void> {
    const handle = this.handle!;
    await pipeline(Readable.from(chunks), handle.createWriteStream());
    this.handle = undefined;
    try {
      await rename(this.tempPath, this.path);
    } catch (err) {
      throw new InputError('--output', `cannot write '${this.path}' (${codeOf(err)})`);
    }
  }

  /** Removes the temporary file (after an error). */
  async discard(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close().catch(() => undefined);
    await rm(this.tempPath, { force: true });
  }

  /** Removes the temporary file at once (a signal: the process exits next). */
  discardNow(): void {
    try {
      rmSync(this.tempPath, { force: true });
    } catch {
      // Nothing left to remove.
    }
  }
}

function codeOf(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? 'unknown error';
}
