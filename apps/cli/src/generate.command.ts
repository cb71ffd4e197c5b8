import { Command, InvalidArgumentError, Option } from 'commander';

import { pigeonhole, randomKSat } from '@satfarm/cnf';
import { generateSingles, generateTowers, TOWERS_GENERATE_MAX_SIZE } from '@satfarm/engine';
import { generateScramble, generateSnake, InputError } from '@satfarm/games';

import { nonNegativeInt, positiveInt } from './cli-options.js';

function ratio(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    throw new InvalidArgumentError(`expected a positive number, got '${value}'`);
  return n;
}

/** `satfarm generate <game>`: instances for tests, benchmarks and play. */
export function generateCommand(): Command {
  const generate = new Command('generate').description(
    'generate instances (cnf benchmark families, puzzles)',
  );
  generate.addCommand(
    new Command('cnf')
      .description('classic DIMACS benchmarks: pigeonhole PHP(n+1, n) or random k-SAT')
      .addOption(
        new Option('--family <name>', 'formula family').choices(['php', 'random']).makeOptionMandatory(),
      )
      .option('--holes <n>', 'php: number of holes (pigeons = holes + 1 unless --pigeons)', positiveInt)
      .option('--pigeons <n>', 'php: number of pigeons', positiveInt)
      .option('--vars <n>', 'random: number of variables', positiveInt)
      .option('--ratio <r>', 'random: clauses per variable', ratio, 4.26)
      .option('--k <n>', 'random: literals per clause', positiveInt, 3)
      .option('--seed <n>', 'random: seed', nonNegativeInt, 1)
      .action(
        (
          flags: {
            family: string;
            holes?: number;
            pigeons?: number;
            vars?: number;
            ratio: number;
            k: number;
            seed: number;
          },
          cmd: Command,
        ) => {
          // An option of the other family would be ignored: refuse it, as solve refuses its flags.
          const others = flags.family === 'php' ? ['vars', 'ratio', 'k', 'seed'] : ['holes', 'pigeons'];
          const given = others.find((name) => cmd.getOptionValueSource(name) === 'cli');
          if (given !== undefined)
            throw new InputError(
              `--${given}`,
              `applies to --family ${flags.family === 'php' ? 'random' : 'php'}, not to ${flags.family}`,
            );
          let formula;
          if (flags.family === 'php') {
            const holes = required('holes', flags.holes);
            const pigeons = flags.pigeons ?? holes + 1;
            // One clause per pigeon, and one per pair of pigeons per hole.
            withinSize(
              flags.pigeons === undefined ? 'holes' : 'pigeons',
              pigeons + (holes * pigeons * (pigeons - 1)) / 2,
            );
            formula = pigeonhole(pigeons, holes);
          } else {
            const vars = required('vars', flags.vars);
            const clauses = Math.round(flags.ratio * vars);
            withinSize('vars', Math.max(vars, clauses));
            formula = randomKSat(vars, clauses, atMostVars(flags.k, vars), flags.seed);
          }
          for (const chunk of formula.dimacsChunks()) process.stdout.write(chunk);
        },
      ),
  );
  generate.addCommand(
    new Command('cube')
      .description('a random scramble (JSON instance for solve cube)')
      .addOption(new Option('--size <n>', 'cube size').choices(['2', '3']).default('3'))
      .requiredOption('--moves <n>', 'scramble length', nonNegativeInt)
      .option('--seed <n>', 'seed (default: the clock)', nonNegativeInt)
      .action((flags: { size: string; moves: number; seed?: number }) => {
        const size = Number(flags.size) as 2 | 3;
        const moves = generateScramble(size, flags.moves, flags.seed ?? Date.now());
        const scramble = moves.join(' ');
        printJson({ size, scramble });
      }),
  );
  generate.addCommand(
    new Command('snake')
      .description('a random snake instance that has a solution (JSON instance for solve snake)')
      .requiredOption('--width <n>', 'grid width', positiveInt)
      .requiredOption('--height <n>', 'grid height', positiveInt)
      .requiredOption('--apples <n>', 'number of apples', nonNegativeInt)
      .option('--seed <n>', 'seed', nonNegativeInt, 1)
      .addOption(new Option('--order <order>', 'apple order').choices(['any', 'given']).default('any'))
      .option('--length <n>', 'initial snake length', positiveInt)
      .option('--spawn <n>', 'cells of a spawn chain (order any)', nonNegativeInt)
      .addOption(new Option('--tail <rule>', 'tail rule').choices(['follows', 'strict']))
      .addOption(new Option('--start <start>', 'let the plan choose the start cell').choices(['any']))
      .option('--walls <n>', 'number of walls, even (cut from the tour in pairs)', nonNegativeInt)
      .action(
        (flags: {
          width: number;
          height: number;
          apples: number;
          seed: number;
          order: 'any' | 'given';
          length?: number;
          spawn?: number;
          tail?: 'follows' | 'strict';
          start?: 'any';
          walls?: number;
        }) => {
          printJson(generateSnake(flags));
        },
      ),
  );
  generate.addCommand(
    new Command('towers')
      .description("a Towers puzzle with a unique solution, as Tatham's game ID")
      .requiredOption('--size <n>', `grid size, 1..${TOWERS_GENERATE_MAX_SIZE}`, positiveInt)
      .option('--seed <n>', 'seed (default: the clock)', nonNegativeInt)
      .option('--json', 'print the JSON instance instead of the game ID')
      .action(async (flags: { size: number; seed?: number; json?: boolean }) => {
        const puzzle = await generateTowers({ size: flags.size, seed: flags.seed });
        process.stdout.write(flags.json ? `${JSON.stringify(puzzle.instance)}\n` : `${puzzle.id}\n`);
      }),
  );
  generate.addCommand(
    new Command('singles')
      .description("a Singles puzzle with a unique solution, as Tatham's game ID")
      .requiredOption('--width <n>', 'grid width', positiveInt)
      .option('--height <n>', 'grid height (default: the width)', positiveInt)
      .option('--seed <n>', 'seed (default: the clock)', nonNegativeInt)
      .option('--json', 'print the JSON instance instead of the game ID')
      .action(async (flags: { width: number; height?: number; seed?: number; json?: boolean }) => {
        const puzzle = await generateSingles({ width: flags.width, height: flags.height, seed: flags.seed });
        process.stdout.write(flags.json ? `${JSON.stringify(puzzle.instance)}\n` : `${puzzle.id}\n`);
      }),
  );
  return generate;
}

function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

/**
 * The most clauses (or variables) a generated formula may have: it is built in memory before it
 * is printed, and PHP grows with the cube of the holes (PHP(201, 200) has 4,020,201 clauses).
 */
export const MAX_GENERATED_CLAUSES = 5_000_000;

function withinSize(field: string, size: number): void {
  if (size > MAX_GENERATED_CLAUSES)
    throw new InputError(
      field,
      `would make a formula of ${size.toLocaleString('en-US')} clauses or variables; at most ${MAX_GENERATED_CLAUSES.toLocaleString('en-US')}`,
    );
}

/** `--k`, which random k-SAT needs at most `--vars` of (distinct variables in a clause). */
function atMostVars(k: number, vars: number): number {
  if (k > vars) throw new InputError('k', `must be at most --vars (${vars}), got ${k}`);
  return k;
}

function required(name: string, value: number | undefined): number {
  if (value === undefined) throw new InputError(name, 'is required for this family');
  return value;
}
