import { Command } from 'commander';

import type { JobResource } from '@satfarm/queue';

import { FarmClient, farmErrorExitCode, farmUrl } from './farm-client.js';
import { exitCodeForJob } from './job-exit-code.js';
import { addJobOptionFlags, jobOptionsOf } from './job-option-flags.js';
import { readInput, readPlan } from './read-input.js';
import { renderReport } from './report-view.js';

/** The flags `submit` reads itself: its own, and `--plan`'s text (`jobOptionsOf` reads the options). */
interface SubmitFlags {
  input?: string;
  api?: string;
  key?: string;
  plan?: string;
  progress: boolean;
  json?: boolean;
}

/**
 * `satfarm submit <game>`: send one job to a running farm, follow it live, print the final job as
 * `solve` prints its report: the human view, or with `--json` the job resource.
 */
export function submitCommand(): Command {
  const command = new Command('submit')
    .description('submit one job to a running farm, follow its progress, print the final job')
    .argument('<game>', 'cube, snake, hexahop, towers, singles, tictactoe or cnf')
    .option('-i, --input <file>', 'instance file, - for standard input, or inline JSON')
    .option('--api <url>', 'the farm (default: SATFARM_API_URL or http://127.0.0.1:3000)')
    .option('--key <key>', 'API key (default: SATFARM_API_KEY)');
  return addJobOptionFlags(command, 'submit')
    .option('--json', "print the final job as one JSON object (the API's job resource)")
    .option('--no-progress', 'no progress lines on a terminal')
    .action(async (game: string, flags: SubmitFlags) => {
      const api = farmUrl(flags.api);
      const instance = await readInput(flags.input);
      const plan = await readPlan(flags.plan, flags.input);
      const client = new FarmClient(api, flags.key ?? process.env.SATFARM_API_KEY);
      const options = { ...jobOptionsOf(flags, 'submit'), ...(plan === undefined ? {} : { plan }) };
      const showProgress = flags.progress && process.stderr.isTTY;
      let resource: JobResource;
      try {
        resource = await client.run({ game, instance, options }, (line) => {
          if (showProgress) process.stderr.write(`${line}\n`);
        });
      } catch (err) {
        const code = farmErrorExitCode(err);
        if (code === undefined) throw err;
        process.exitCode = code;
        return;
      }
      process.stdout.write(flags.json ? `${JSON.stringify(resource)}\n` : renderReport(resource));
      process.exitCode = exitCodeForJob(resource);
    });
}
