import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { ContainerEngine } from './container-engine.js';
import { parseFleetArgs, USAGE } from './fleet-args.js';
import { ContainerEngineError, FleetInputError, FleetUnhealthyError } from './fleet-errors.js';
import { allHealthy, down, formatStatus, scale, status, up, type FleetIo } from './fleet.js';

// dist/deploy/fleet/main.js -> the repository root.
const root = fileURLToPath(new URL('../../../', import.meta.url));

function engineProgram(env: NodeJS.ProcessEnv): 'podman' | 'docker' {
  const chosen = env.SATFARM_CONTAINER_ENGINE;
  if (chosen !== undefined && chosen !== '') {
    if (chosen !== 'podman' && chosen !== 'docker')
      throw new FleetInputError(
        'SATFARM_CONTAINER_ENGINE',
        `expected podman or docker, got ${JSON.stringify(chosen)}`,
      );
    return chosen;
  }
  for (const program of ['podman', 'docker'] as const) {
    try {
      execFileSync(program, ['--version'], { stdio: 'ignore' });
      return program;
    } catch {
      // not installed: try the next one
    }
  }
  throw new FleetInputError('SATFARM_CONTAINER_ENGINE', 'neither podman nor docker is installed');
}

async function main(argv: string[]): Promise<number> {
  const command = parseFleetArgs(argv, process.env, `${root}deploy/compose.yaml`);
  if (command.command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const program = engineProgram(process.env);
  const env = { ...process.env };
  // The repository's Podman settings (deploy/containers.conf) unless the caller chose others.
  const conf = `${root}deploy/containers.conf`;
  if (program === 'podman' && env.CONTAINERS_CONF === undefined && existsSync(conf))
    env.CONTAINERS_CONF = conf;
  const io: FleetIo = {
    engine: new ContainerEngine(program, env),
    env: process.env,
    say: (line) => process.stderr.write(`fleet: ${line}\n`),
  };
  switch (command.command) {
    case 'up':
      await up(command, io);
      return 0;
    case 'scale':
      await scale(command, io);
      return 0;
    case 'down':
      await down(command, io);
      return 0;
    case 'status': {
      const s = await status(command, io);
      process.stdout.write(command.json ? `${JSON.stringify(s, null, 2)}\n` : `${formatStatus(s)}\n`);
      return allHealthy(s) ? 0 : 1;
    }
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  if (err instanceof FleetInputError) {
    process.stderr.write(`fleet: bad input: ${err.message}\n`);
    process.exitCode = 2;
  } else if (err instanceof FleetUnhealthyError) {
    process.stderr.write(`fleet: ${err.message}\n`);
    process.exitCode = 1;
  } else if (err instanceof ContainerEngineError) {
    process.stderr.write(`fleet: ${err.message}\n`);
    process.exitCode = 4;
  } else {
    process.stderr.write(
      `fleet: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exitCode = 4;
  }
}
