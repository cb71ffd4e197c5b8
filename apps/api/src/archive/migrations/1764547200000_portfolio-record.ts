import type { MigrationBuilder } from 'node-pg-migrate';

/**
 * The portfolio's record of races (docs/farm.md#portfolio), kept with the finished jobs so that a
 * farm whose Redis starts empty keeps what it learned: per game, expected answer and configuration,
 * the races it ran in, those it won and the time to its wins.
 */
export function up(pgm: MigrationBuilder): void {
  pgm.createTable('portfolio_tallies', {
    game: { type: 'text', notNull: true },
    expected: { type: 'text', notNull: true },
    config: { type: 'text', notNull: true },
    runs: { type: 'bigint', notNull: true, default: 0 },
    wins: { type: 'bigint', notNull: true, default: 0 },
    win_ms: { type: 'bigint', notNull: true, default: 0 },
  });
  pgm.addConstraint('portfolio_tallies', 'portfolio_tallies_pkey', {
    primaryKey: ['game', 'expected', 'config'],
  });
}

export function down(pgm: MigrationBuilder): void {
  pgm.dropTable('portfolio_tallies');
}
