import { randomBytes } from 'node:crypto';

import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';

import { FarmKeys } from '@satfarm/queue';

import { RedisPortfolioRecord } from './portfolio-record.redis.js';

// Against the real Redis, under a prefix of this file's own, removed afterwards.
const prefix = `satfarm-unit-portfolio-${process.pid}-${randomBytes(3).toString('hex')}`;
const redis = new Redis(process.env.SATFARM_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
const keys = new FarmKeys(prefix);

afterAll(async () => {
  const found = await redis.keys(`${prefix}:*`);
  if (found.length > 0) await redis.del(...found);
  await redis.quit();
});

describe(RedisPortfolioRecord.name, () => {
  it('counts every race of coordinators recording at once, per game and expected answer', async () => {
    const connections = [0, 1, 2].map(() => redis.duplicate());
    const writers = connections.map((connection) => new RedisPortfolioRecord(connection, keys));
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        writers[i % 3]!.add('snake', 'sat', [
          { config: 'kissat/sat/3', won: i % 3 !== 0, ms: 20 },
          { config: 'cadical/default/0', won: i % 3 === 0, ms: 70 },
        ]),
      ),
    );
    const tallies = await new RedisPortfolioRecord(redis, keys).tallies('snake', 'sat');
    expect(Object.fromEntries(tallies)).toEqual({
      'kissat/sat/3': { runs: 30, wins: 20, winMs: 400 },
      'cadical/default/0': { runs: 30, wins: 10, winMs: 700 },
    });
    expect((await writers[0]!.tallies('snake', 'unsat')).size).toBe(0);
    await Promise.all(connections.map((connection) => connection.quit()));
  });

  it('skips fields it does not know, so a newer farm sharing the hash does not break it', async () => {
    await redis.hset(
      keys.portfolioRecord('cube', 'unsat'),
      'kissat/unsat/0|runs',
      '4',
      'kissat/unsat/0|rank',
      'x',
    );
    const tallies = await new RedisPortfolioRecord(redis, keys).tallies('cube', 'unsat');
    expect(Object.fromEntries(tallies)).toEqual({ 'kissat/unsat/0': { runs: 4, wins: 0, winMs: 0 } });
  });
});
