import type { GameDefinition } from '@satfarm/games';

import type { JobMeta } from './job-record.js';
import type { JobStore } from './job.store.js';
import { LruCache } from './lru.cache.js';

/** Finds a game by name; throws `InputError` for an unknown one. */
export type GameLookup = (name: string, field?: string) => GameDefinition<unknown, unknown>;

/**
 * Jobs' instances as clients sent them and as their games parsed them, kept for the jobs this
 * process works on and read again from the store (and parsed again) for the others.
 */
export class JobInstances {
  private readonly instances = new LruCache<string, unknown>(64);
  private readonly parsedInstances = new LruCache<string, unknown>(16);
  /** Files a client's instance may make the API read (the games' installed ones aside). */
  private readonly readableFiles: ReadonlySet<string>;

  constructor(
    private readonly store: Pick<JobStore, 'instance'>,
    private readonly games: GameLookup,
    levelFiles: readonly string[],
  ) {
    this.readableFiles = new Set(levelFiles);
  }

  /** `instance` parsed by `game`, reading only the files this farm allows. */
  parse(game: GameDefinition<unknown, unknown>, instance: unknown): unknown {
    return game.parse(instance, { readableFiles: this.readableFiles });
  }

  /** Keeps a new job's instance and its parsed form. */
  remember(jobId: string, instance: unknown, parsed: unknown): void {
    this.instances.set(jobId, instance);
    this.parsedInstances.set(jobId, parsed);
  }

  /** Drops a finished job's instance. */
  forget(jobId: string): void {
    this.instances.delete(jobId);
    this.parsedInstances.delete(jobId);
  }

  async instance(jobId: string): Promise<unknown> {
    const cached = this.instances.get(jobId);
    if (cached !== undefined) return cached;
    const instance = await this.store.instance(jobId);
    if (instance !== undefined) this.instances.set(jobId, instance);
    return instance;
  }

  /** A job's instance as its game parsed it (as at submission, level files and all). */
  async parsed(meta: JobMeta): Promise<unknown> {
    let parsed = this.parsedInstances.get(meta.id);
    if (parsed === undefined) {
      parsed = this.parse(this.games(meta.game), await this.instance(meta.id));
      this.parsedInstances.set(meta.id, parsed);
    }
    return parsed;
  }

  /** The game's drawing of a job's instance with `solution`; undefined when the game cannot draw it. */
  async render(meta: JobMeta, solution: unknown): Promise<unknown> {
    try {
      return safeRender(this.games(meta.game), await this.parsed(meta), solution);
    } catch {
      return undefined;
    }
  }
}

export function safeRender(
  game: GameDefinition<unknown, unknown>,
  instance: unknown,
  solution: unknown,
): unknown {
  try {
    return game.render(instance, solution);
  } catch {
    return undefined;
  }
}
