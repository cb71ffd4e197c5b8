import { describe, expect, it } from 'vitest';

import { parseFleetArgs } from './fleet-args.js';
import { FleetInputError } from './fleet-errors.js';

const parse = (argv: string[], env: Record<string, string> = {}) => parseFleetArgs(argv, env, 'compose.yaml');

/** The field a bad command line is refused for. */
function refused(argv: string[], env: Record<string, string> = {}): string {
  try {
    parse(argv, env);
  } catch (err) {
    if (err instanceof FleetInputError) return err.field;
    throw err;
  }
  throw new Error(`accepted: ${argv.join(' ')}`);
}

describe('the fleet command line', () => {
  it('reads up with its defaults, the fleet name from SATFARM_FLEET, and its flags', () => {
    expect(parse(['up'])).toEqual({ command: 'up', name: 'satfarm', file: 'compose.yaml', timeoutSec: 180 });
    expect(parse(['up'], { SATFARM_FLEET: 'ci-7' })).toMatchObject({ name: 'ci-7' });
    expect(parse(['up', '--workers', '3', '--port', '3310', '--name', 'a', '--timeout', '60'])).toEqual({
      command: 'up',
      name: 'a',
      file: 'compose.yaml',
      workers: 3,
      port: 3310,
      timeoutSec: 60,
    });
    expect(parse(['up', '--workers=4'])).toMatchObject({ workers: 4 });
  });

  it('reads scale, status and down', () => {
    expect(parse(['scale', '3'])).toEqual({
      command: 'scale',
      name: 'satfarm',
      file: 'compose.yaml',
      workers: 3,
    });
    expect(parse(['scale', '0', '--name', 'x'])).toMatchObject({ workers: 0, name: 'x' });
    expect(parse(['status', '--json'])).toMatchObject({ command: 'status', json: true });
    expect(parse(['status'])).toMatchObject({ json: false });
    expect(parse(['down', '--volumes'])).toMatchObject({ command: 'down', volumes: true });
    expect(parse(['down'])).toMatchObject({ volumes: false });
    expect(parse([])).toEqual({ command: 'help' });
    expect(parse(['up', '--help'])).toEqual({ command: 'help' });
  });

  it('refuses bad values naming the flag', () => {
    expect(refused(['up', '--workers', '0'])).toBe('--workers');
    expect(refused(['up', '--workers', '151'])).toBe('--workers');
    expect(refused(['up', '--workers', '2.5'])).toBe('--workers');
    expect(refused(['up', '--port', 'x'])).toBe('--port');
    expect(refused(['up', '--port', '70000'])).toBe('--port');
    expect(refused(['up', '--port'])).toBe('--port');
    expect(refused(['up', '--timeout', '0'])).toBe('--timeout');
    expect(refused(['up', '--name', 'Bad Name'])).toBe('--name');
    expect(refused(['up'], { SATFARM_FLEET: '-x' })).toBe('SATFARM_FLEET');
    expect(refused(['scale'])).toBe('N');
    expect(refused(['scale', 'many'])).toBe('N');
    expect(refused(['scale', '-1'])).toBe('-1');
  });

  it('refuses unknown commands, flags of other commands and stray arguments', () => {
    expect(refused(['start'])).toBe('command');
    expect(refused(['up', '--wrokers', '2'])).toBe('--wrokers');
    expect(refused(['down', '--json'])).toBe('--json');
    expect(refused(['scale', '2', '--workers', '3'])).toBe('--workers');
    expect(refused(['status', 'now'])).toBe('now');
  });
});
