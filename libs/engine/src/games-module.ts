import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';

import type { GameDefinition } from '@satfarm/games';

/** Finds a game by its name: the registry's `gameById`, or a module's `lookup`. */
export type GameLookup = (name: string) => GameDefinition<unknown, unknown>;

/**
 * The game lookup a module exports as `lookup` (a file path or a URL): how a farm with games
 * beyond the registry (the benchmarks' and tests' `staircase`) names them to a thread, which can
 * import a module but not take a function.
 */
export async function importGameLookup(specifier: string): Promise<GameLookup> {
  const url = isAbsolute(specifier) ? pathToFileURL(specifier).href : specifier;
  const module = (await import(url)) as { lookup?: unknown };
  if (typeof module.lookup !== 'function')
    throw new Error(`the games module ${specifier} exports no lookup function`);
  return module.lookup as GameLookup;
}
