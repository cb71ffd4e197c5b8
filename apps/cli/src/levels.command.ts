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
      // Columns as wide as their longest entry (chapter names run from `0_green` to `1_trampoline`);
      // numbers right-aligned, the tile list last and unpadded.
      const header = ['#', 'name', 'file', 'chapter', 'par', 'diff', 'supported', 'tiles'];
      const cells = levels.map((l) => [
        String(l.number),
        l.name,
        l.file,
        l.chapter,
        String(l.par),
        String(l.difficulty),
        l.supported ? 'yes' : 'no',
        l.tiles.join(','),
      ]);
      const numeric = new Set([0, 4, 5]);
      const widths = header.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i]!.length)));
      const line = (row: string[]): string =>
        row
          .map((cell, i) =>
            i === row.length - 1
              ? cell
              : numeric.has(i)
                ? cell.padStart(widths[i]!)
                : cell.padEnd(widths[i]!),
          )
          .join('  ');
      process.stdout.write(`${[header, ...cells].map(line).join('\n')}\n`);
    });
}
