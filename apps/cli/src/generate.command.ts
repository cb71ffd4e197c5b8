import { Command, InvalidArgumentError, Option } from 'commander';

import { pigeonhole, randomKSat } from '@satfarm/cnf';
import { InputError } from '@satfarm/games';

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
        (flags: {
          family: string;
          holes?: number;
          pigeons?: number;
          vars?: number;
          ratio: number;
          k: number;
          seed: number;
        }) => {
          const formula =
            flags.family === 'php'
              ? pigeonhole(
                  flags.pigeons ?? required('holes', flags.holes) + 1,
                  required('holes', flags.holes),
                )
              : randomKSat(
                  required('vars', flags.vars),
                  Math.round(flags.ratio * required('vars', flags.vars)),
                  flags.k,
                  flags.seed,
                );
          for (const chunk of formula.dimacsChunks()) process.stdout.write(chunk);
        },
      ),
  );
  return generate;
}

function required(name: string, value: number | undefined): number {
  if (value === undefined) throw new InputError(name, 'is required for this family');
  return value;
}
