import { Command } from 'commander';

import { InputError, listHexahopLevels } from '@satfarm/games';

/** `satfarm levels hexahop`: the levels of a game with their par and whether they are supported. */
export function levelsCommand(): Command {
  return new Command('levels')
    .description('list the levels of a game (hexahop)')
    .argument('<game>', 'hexahop')
    .option('--levels <file>', 'levels.dat to read (default: the installed one)')
    .option('--json', 'print a JSON array')
    .action((game: string, flags: { levels?: string; json?: boolean }) => {
      if (game !== 'hexahop') throw new InputError('game', `'${game}' has no level list; only hexahop has`);
      const levels = listHexahopLevels(flags.levels);
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(levels)}\n`);
        return;
      }
      const rows = levels.map((l) =>
        [
          String(l.number).padStart(3),
          l.name.padEnd(24),
          l.file.padEnd(18),
          l.chapter.padEnd(10),
          String(l.par).padStart(5),
          String(l.difficulty).padStart(4),
          (l.supported ? 'yes' : 'no').padEnd(9),
          l.tiles.join(','),
        ].join('  '),
      );
      const header = [
        '  #',
        'name'.padEnd(24),
        'file'.padEnd(18),
        'chapter'.padEnd(10),
        '  par',
        'diff',
        'supported',
        'tiles',
      ];
      process.stdout.write(`${[header.join('  '), ...rows].join('\n')}\n`);
    });
}
