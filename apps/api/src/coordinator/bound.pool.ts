import { type SearchOutcome, SearchThread } from './search-thread.js';

/** What a game's bound search (`GameDefinition.searchedBound.find`) gave for one new job's instance. */
export interface SearchedBound {
  found: unknown;
}

/** Searches new jobs' bounds off the API's event loop (see `BoundPool`). */
export interface BoundSource {
  /**
   * What the game's bound search (`GameDefinition.searchedBound.find`) found for `instance`, as the
   * client sent it, for `searchedBound.adopt` here; or why it failed.
   */
  find(game: string, instance: unknown): Promise<SearchOutcome>;
  close(): Promise<void>;
}

/**
 * Runs the bound searches of games that have one (the cube's: up to a few hundred milliseconds a
 * job) in a search thread of their own, so that accepting a batch of thousands keeps the event
 * loop free, and no bound waits behind a quick plan.
 */
export class BoundPool implements BoundSource {
  private readonly thread: SearchThread;

  constructor(readableFiles: readonly string[], onError: (message: string) => void = () => undefined) {
    this.thread = new SearchThread('bound', readableFiles, onError);
  }

  find(game: string, instance: unknown): Promise<SearchOutcome> {
    return this.thread.run({ kind: 'bound', game, instance });
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}
