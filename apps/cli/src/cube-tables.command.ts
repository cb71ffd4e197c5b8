import { Command, Option } from 'commander';

import {
  buildCubeTables,
  cubeTableDirectory,
  InputError,
  type Metric,
  readPatternTable,
  strongCoordinates,
  type TableBuild,
  TABLES_OFF,
} from '@satfarm/games';

const METRICS = ['htm', 'qtm', 'both'] as const;

function metricsOf(metric: (typeof METRICS)[number]): Metric[] {
  return metric === 'both' ? ['htm', 'qtm'] : [metric];
}

/** The folder of the flag, else the default one; refuses `off`, where no table is kept. */
function directory(flag: string | undefined): string {
  const dir = flag ?? cubeTableDirectory();
  if (dir === undefined || dir === TABLES_OFF)
    throw new InputError(
      flag === undefined ? 'SATFARM_PDB_DIR' : '--dir',
      `is '${TABLES_OFF}': name a folder for the tables`,
    );
  return dir;
}

const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/**
 * `satfarm cube-tables build|status`: the 3x3's pattern tables (docs/games.md#cube), built once
 * into the shared cache folder that every process's cube lower bound reads.
 */
export function cubeTablesCommand(): Command {
  const command = new Command('cube-tables').description(
    "the 3x3 cube's pattern tables for a stronger lower bound (docs/games.md#cube)",
  );
  command.addCommand(
    new Command('build')
      .description('build the tables missing (about a minute for both metrics), into the cache folder')
      .addOption(new Option('--metric <metric>', 'the metric to build for').choices(METRICS).default('both'))
      .option('--dir <folder>', 'where the tables go (default: SATFARM_PDB_DIR, else ~/.cache/satfarm/pdb)')
      .option('--force', 'build again the tables already present')
      .option('--json', 'print one JSON object per table')
      .action(
        (flags: { metric: (typeof METRICS)[number]; dir?: string; force?: boolean; json?: boolean }) => {
          const dir = directory(flags.dir);
          const started = performance.now();
          const print = (b: TableBuild): void => {
            if (flags.json) {
              process.stdout.write(`${JSON.stringify(b)}\n`);
              return;
            }
            const what = `${b.metric} ${b.pattern.padEnd(19)} ${mib(b.bytes).padStart(9)}`;
            const how =
              b.status === 'present'
                ? 'present'
                : `built in ${((b.ms!.moveTables + b.ms!.search + b.ms!.write) / 1000).toFixed(1)} s` +
                  `, max distance ${b.histogram!.length - 1}${b.replaced ? ' (replaced a mismatched file)' : ''}`;
            process.stdout.write(`${what}  ${how}\n`);
          };
          if (!flags.json) process.stdout.write(`cube tables in ${dir}\n`);
          buildCubeTables({
            dir,
            metrics: metricsOf(flags.metric),
            force: flags.force ?? false,
            onTable: print,
          });
          if (!flags.json)
            process.stdout.write(`done in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
        },
      ),
  );
  command.addCommand(
    new Command('status')
      .description('list the tables and whether each is present (exit 1 when one is not)')
      .option('--dir <folder>', 'where the tables are (default: SATFARM_PDB_DIR, else ~/.cache/satfarm/pdb)')
      .action((flags: { dir?: string }) => {
        const dir = directory(flags.dir);
        let all = true;
        process.stdout.write(`cube tables in ${dir}\n`);
        for (const metric of metricsOf('both')) {
          for (const coord of strongCoordinates(metric)) {
            const status = readPatternTable(dir, metric, coord).status;
            all &&= status === 'present';
            process.stdout.write(`${metric} ${coord.name.padEnd(19)} ${status}\n`);
          }
        }
        if (!all) {
          process.stdout.write('build them with: satfarm cube-tables build\n');
          process.exitCode = 1;
        }
      }),
  );
  return command;
}
