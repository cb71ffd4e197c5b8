import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';

import { Command, Option } from 'commander';

import type { BatchSummary } from '@satfarm/queue';

import { positiveInt } from './cli-options.js';
import { BatchClient } from './batch-client.js';
import { batchExitCode, followBatch } from './batch-follow.js';
import { batchEntries, defaultLabel, readBatchTexts } from './batch-input.js';
import { batchKey } from './batch-plan.js';
import { BatchProgressBar, BatchProgressLines, countsText, doneCount } from './batch-progress.js';
import { submitBatch } from './batch-submission.js';
import { FarmClient, farmErrorExitCode, farmUrl } from './farm-client.js';
import { addJobOptionFlags, jobOptionsOf } from './job-option-flags.js';

interface FarmFlags {
  api?: string;
  apiKey?: string;
}

interface SubmitFlags extends FarmFlags {
  game?: string;
  key?: string;
  label?: string;
  wait?: boolean;
  json?: boolean;
}

/** Adds `--api` and `--api-key` (`--key` is the batch's own key here, docs/batches.md). */
function withFarm(command: Command): Command {
  return command
    .option('--api <url>', 'the farm (default: SATFARM_API_URL or http://127.0.0.1:3000)')
    .option('--api-key <key>', 'API key (default: SATFARM_API_KEY)');
}

function batchClient(flags: FarmFlags): BatchClient {
  return new BatchClient(new FarmClient(farmUrl(flags.api), flags.apiKey ?? process.env.SATFARM_API_KEY));
}

/** Runs a batch command, turning the farm's failures into exit codes 4 and 5 (docs/cli.md). */
async function farmAction(run: () => Promise<number | void>): Promise<void> {
  try {
    const code = await run();
    if (code !== undefined) process.exitCode = code;
  } catch (err) {
    const code = farmErrorExitCode(err);
    if (code === undefined) throw err;
    process.exitCode = code;
  }
}

/** Follows a batch to its end on stderr (a bar on a terminal) and answers its exit code. */
async function follow(batches: BatchClient, batchId: string): Promise<number> {
  const view = process.stderr.isTTY
    ? new BatchProgressBar()
    : new BatchProgressLines((line) => process.stderr.write(line));
  const summary = await followBatch(batches, batchId, view);
  return batchExitCode(batches, summary);
}

/** `satfarm batch ...`: many jobs submitted, followed and exported together (docs/batches.md). */
export function batchCommand(): Command {
  const batch = new Command('batch').description('submit, follow and export batches of jobs on a farm');

  const submit = new Command('submit')
    .description('submit one job per file (a folder: its files; .jsonl or -: one job a line)')
    .argument('<inputs...>', 'instance files, folders, .jsonl files, or - for JSON Lines on standard input')
    .option('--game <game>', 'the game of every file (default: by its extension or content)')
    .option('--key <key>', "the batch's key (default: the SHA-256 of its jobs)")
    .option('--label <label>', "the batch's name (default: the first file's or folder's)")
    .option('--wait', 'follow the batch to its end; exit 0 when every job is answered, else 3')
    .option('--json', 'print {batchId, size, existing} as one JSON object');
  addJobOptionFlags(withFarm(submit), 'batch submit').action(async (inputs: string[], flags: SubmitFlags) => {
    const batches = batchClient(flags);
    const texts = await readBatchTexts(inputs);
    const requests = batchEntries(texts, jobOptionsOf(flags, 'batch submit'), flags.game).map(
      (entry) => entry.request,
    );
    const key = flags.key ?? batchKey(requests);
    await farmAction(async () => {
      const submitted = await submitBatch(batches, requests, key, flags.label ?? defaultLabel(inputs));
      process.stdout.write(flags.json ? `${JSON.stringify(submitted)}\n` : `${submitted.batchId}\n`);
      if (flags.wait) return follow(batches, submitted.batchId);
    });
  });

  const status = withFarm(
    new Command('status')
      .description("a batch's counts by status, jobs done and size")
      .argument('<batchId>')
      .option('--json', 'print the batch summary as one JSON object'),
  ).action(async (batchId: string, flags: FarmFlags & { json?: boolean }) => {
    const batches = batchClient(flags);
    await farmAction(async () => {
      const { jobIds: _ids, ...summary } = await batches.get(batchId);
      process.stdout.write(flags.json ? `${JSON.stringify(summary)}\n` : statusText(summary));
    });
  });

  const watch = withFarm(
    new Command('watch')
      .description('follow a batch to its end; exit 0 when every job is answered, else 3')
      .argument('<batchId>'),
  ).action(async (batchId: string, flags: FarmFlags) => {
    const batches = batchClient(flags);
    await farmAction(() => follow(batches, batchId));
  });

  const cancel = withFarm(
    new Command('cancel').description('cancel every job of a batch that is not over').argument('<batchId>'),
  ).action(async (batchId: string, flags: FarmFlags) => {
    const batches = batchClient(flags);
    await farmAction(async () => {
      process.stdout.write(statusText(await batches.cancel(batchId)));
    });
  });

  const results = withFarm(
    new Command('results')
      .description("the batch's results: one job a line (jsonl) or a row (csv)")
      .argument('<batchId>')
      .addOption(new Option('--format <format>', 'jsonl or csv').choices(['jsonl', 'csv']).default('jsonl'))
      .option('--output <file>', 'write to this file instead of standard output'),
  ).action(async (batchId: string, flags: FarmFlags & { format: string; output?: string }) => {
    const batches = batchClient(flags);
    await farmAction(async () => {
      const body = await batches.results(batchId, flags.format);
      // The export streams through: a batch of many thousand jobs is never held whole.
      await pipeline(body, flags.output === undefined ? process.stdout : createWriteStream(flags.output), {
        end: flags.output !== undefined,
      });
    });
  });

  const list = withFarm(
    new Command('list')
      .description("the farm's batches, newest first")
      .option('--limit <n>', 'at most this many (1 to 500)', positiveInt, 50)
      .option('--json', 'print the batch summaries as one JSON list'),
  ).action(async (flags: FarmFlags & { limit: number; json?: boolean }) => {
    const batches = batchClient(flags);
    await farmAction(async () => {
      const summaries = await batches.list(flags.limit);
      process.stdout.write(flags.json ? `${JSON.stringify(summaries)}\n` : listTable(summaries));
    });
  });

  return batch
    .addCommand(submit)
    .addCommand(status)
    .addCommand(watch)
    .addCommand(cancel)
    .addCommand(results)
    .addCommand(list);
}

/** `batch status` and `batch cancel` without --json. */
function statusText(summary: BatchSummary): string {
  const lines = [
    `batch ${summary.batchId}${summary.label ? ` (${summary.label})` : ''}`,
    `created: ${summary.createdAt}`,
    `done:    ${doneCount(summary.counts)}/${summary.size}${summary.done ? ' (over)' : ''}`,
    `counts:  ${countsText(summary.counts) || '-'}`,
  ];
  if (summary.finishedAt) lines.push(`ended:   ${summary.finishedAt}`);
  return `${lines.join('\n')}\n`;
}

/** `batch list` without --json: one row a batch under a header, columns padded. */
function listTable(summaries: BatchSummary[]): string {
  const rows = [
    ['id', 'label', 'created', 'size', 'done', 'counts'],
    ...summaries.map((s) => [
      s.batchId,
      s.label ?? '-',
      s.createdAt,
      String(s.size),
      `${doneCount(s.counts)}/${s.size}`,
      countsText(s.counts) || '-',
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return (
    rows
      .map((row) =>
        row
          .map((cell, i) => cell.padEnd(widths[i]!))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}
