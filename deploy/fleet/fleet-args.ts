import { parseArgs } from 'node:util';

import { FleetInputError } from './fleet-errors.js';
import { checkFleetName, MAX_WORKERS } from './fleet-plan.js';

export type FleetCommand =
  | { command: 'up'; name: string; workers?: number; port?: number; timeoutSec: number; file: string }
  | { command: 'scale'; name: string; workers: number; file: string }
  | { command: 'status'; name: string; json: boolean; file: string }
  | { command: 'down'; name: string; volumes: boolean; file: string }
  | { command: 'help' };

export const USAGE = `usage: npm run fleet -- <command> [options]

  up [--workers N] [--port P] [--timeout S]   start the fleet and wait until it is healthy
  scale N                                     run N workers (stopping drains them)
  status [--json]                             containers, roles, states, health, the api URL
  down [--volumes]                            remove the fleet's containers and network
                                              (--volumes: its volumes too, Redis's and
                                              PostgreSQL's data with them)

  --name NAME    the fleet (default: SATFARM_FLEET, else satfarm)
  --file FILE    the compose file (default: deploy/compose.yaml)

  Variables of the compose file (SATFARM_API_KEYS, SATFARM_*_IMAGE, ...) are read from the
  environment; SATFARM_CONTAINER_ENGINE picks podman or docker (default: podman if installed).`;

const DEFAULT_TIMEOUT_SEC = 180;

/** Parses the fleet's command line; bad input raises a FleetInputError naming the flag. */
export function parseFleetArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  defaultFile: string,
): FleetCommand {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h')
    return { command: 'help' };
  const common = {
    name: { type: 'string' },
    file: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  } as const;
  const options = {
    up: { ...common, workers: { type: 'string' }, port: { type: 'string' }, timeout: { type: 'string' } },
    scale: common,
    status: { ...common, json: { type: 'boolean' } },
    down: { ...common, volumes: { type: 'boolean' } },
  } as const;
  if (!(command in options))
    throw new FleetInputError(
      'command',
      `expected up, scale, status or down, got ${JSON.stringify(command)}`,
    );
  const verb = command as keyof typeof options;
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    const result = parseArgs({
      args: [...rest],
      options: options[verb],
      allowPositionals: true,
      strict: true,
    });
    parsed = {
      values: result.values as Record<string, string | boolean | undefined>,
      positionals: result.positionals,
    };
  } catch (err) {
    // node:util names the flag in its message ("Unknown option '--wrokers'").
    const message = (err as Error).message.replace(/\. To specify a positional argument.*$/s, '');
    const flag = /'(-[^' ]+)/.exec(message)?.[1] ?? verb;
    throw new FleetInputError(flag, message);
  }
  const { values, positionals } = parsed;
  if (values.help === true) return { command: 'help' };
  const name = checkFleetName(
    typeof values.name === 'string' ? values.name : (env.SATFARM_FLEET ?? '') || 'satfarm',
    typeof values.name === 'string' ? '--name' : 'SATFARM_FLEET',
  );
  const file = typeof values.file === 'string' ? values.file : defaultFile;
  if (verb === 'scale') {
    if (positionals.length !== 1) throw new FleetInputError('N', 'scale takes one number of workers');
    return { command: 'scale', name, file, workers: integer(positionals[0]!, 'N', 0, MAX_WORKERS) };
  }
  if (positionals.length > 0)
    throw new FleetInputError(positionals[0]!, `${verb} takes no arguments besides its flags`);
  if (verb === 'status') return { command: 'status', name, file, json: values.json === true };
  if (verb === 'down') return { command: 'down', name, file, volumes: values.volumes === true };
  return {
    command: 'up',
    name,
    file,
    ...(values.workers === undefined
      ? {}
      : { workers: integer(values.workers as string, '--workers', 1, MAX_WORKERS) }),
    ...(values.port === undefined ? {} : { port: integer(values.port as string, '--port', 1, 65535) }),
    timeoutSec:
      values.timeout === undefined
        ? DEFAULT_TIMEOUT_SEC
        : integer(values.timeout as string, '--timeout', 1, 3600),
  };
}

function integer(text: string, field: string, min: number, max: number): number {
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max)
    throw new FleetInputError(
      field,
      `expected a whole number from ${min} to ${max}, got ${JSON.stringify(text)}`,
    );
  return Number(text);
}
