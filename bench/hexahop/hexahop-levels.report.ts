/*
 * Hex-a-Hop's levels table: every level's best answer across the recorded runs of bench/results
 * (the SAT runs' proven optima and bounds, the searches' answers where no SAT run proved one, and
 * the beam search's plans as upper bounds of the open levels). No solver runs. Fails (exit 1) on a
 * contradiction between the records: a plan shorter than a proven lower bound, two proven optima,
 * or a search optimum other than the SAT one.
 * Run: node dist/bench/hexahop/hexahop-levels.report.js [--check]
 *   writes bench/results/hexahop-levels.json and docs/hexahop-levels.md; with --check, writes
 *   nothing and exits 1 when docs/hexahop-levels.md is not what the records say.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

import { loadLevelCatalog } from '@satfarm/games';

import { benchArgs, resultsPath, writeResults } from './bench-options.js';
import {
  beamResultFiles,
  boundedSearchFiles,
  hexahopResultFiles,
  readLevelRecords,
  readSearchRows,
} from './level-results.js';
import { formatMarkdown, levelLines, levelsMarkdown } from './level-table.js';

const { args } = benchArgs('hexahop levels', { check: { type: 'boolean', default: false } });

async function main(): Promise<void> {
  const files = hexahopResultFiles();
  const stop = (reason: string): never => {
    console.error(`hexahop levels: ${reason}`);
    process.exit(1);
  };
  const results = readLevelRecords(stop);
  const search = readSearchRows();
  const { lines, problems } = levelLines(loadLevelCatalog(), results, search);
  for (const p of problems) console.error(`hexahop levels: ${p}`);
  const docs = resolve(dirname(resultsPath('hexahop')), '../../docs/hexahop-levels.md');
  const markdown = await formatMarkdown(levelsMarkdown(lines), docs);
  if (args.check) {
    let current = '';
    try {
      current = readFileSync(docs, 'utf8');
    } catch {
      // A missing table is a stale one.
    }
    if (current !== markdown) {
      console.error(`hexahop levels: ${docs} is not what bench/results say; run without --check`);
      process.exitCode = 1;
    }
  } else {
    console.table(lines.map(({ plan: _plan, ...shown }) => shown));
    writeFileSync(docs, markdown);
    console.log(`wrote ${docs}`);
    writeResults(resultsPath('hexahop-levels'), {
      report: 'hexahop-levels',
      from: [...files, ...beamResultFiles(), ...boundedSearchFiles()].map((f) => f.replace(/^.*\//, '')),
      problems,
      lines,
    });
  }
  if (problems.length > 0) process.exitCode = 1;
}

await main();
