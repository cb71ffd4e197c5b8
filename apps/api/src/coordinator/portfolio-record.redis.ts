import type { Redis } from 'ioredis';

import type { ConfigTally, ExpectedAnswer, PortfolioRecord, RaceEntry } from '@satfarm/engine';
import type { FarmKeys } from '@satfarm/queue';

/**
 * The farm's portfolio record in Redis: one hash per game and expected answer, counted up with
 * HINCRBY so that coordinators recording at once never lose each other's races.
 */
export class RedisPortfolioRecord implements PortfolioRecord {
  constructor(
    private readonly redis: Redis,
    private readonly keys: FarmKeys,
  ) {}

  async tallies(game: string, expected: ExpectedAnswer): Promise<ReadonlyMap<string, ConfigTally>> {
    const fields = await this.redis.hgetall(this.keys.portfolioRecord(game, expected));
    const tallies = new Map<string, ConfigTally>();
    for (const [field, value] of Object.entries(fields)) {
      const cut = field.lastIndexOf('|');
      const name = field.slice(cut + 1);
      if (cut < 0 || (name !== 'runs' && name !== 'wins' && name !== 'winMs')) continue;
      const config = field.slice(0, cut);
      const tally = tallies.get(config) ?? { runs: 0, wins: 0, winMs: 0 };
      tally[name] = Number(value) || 0;
      tallies.set(config, tally);
    }
    return tallies;
  }

  async add(game: string, expected: ExpectedAnswer, race: readonly RaceEntry[]): Promise<void> {
    if (race.length === 0) return;
    const key = this.keys.portfolioRecord(game, expected);
    const multi = this.redis.multi();
    for (const entry of race) {
      multi.hincrby(key, `${entry.config}|runs`, 1);
      if (entry.won) {
        multi.hincrby(key, `${entry.config}|wins`, 1);
        multi.hincrby(key, `${entry.config}|winMs`, Math.round(entry.ms));
      }
    }
    await multi.exec();
  }
}
