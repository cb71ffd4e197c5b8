import type { MigrationBuilder } from 'node-pg-migrate';

/**
 * The store of record's tables (docs/batches.md, "Store of record"): one row a batch, one row a
 * finished job with its final resource as JSON, and the columns its reads filter and sort by.
 */
export function up(pgm: MigrationBuilder): void {
  pgm.createTable('batches', {
    batch_id: { type: 'text', primaryKey: true },
    created_at: { type: 'timestamptz', notNull: true },
    label: { type: 'text' },
    key: { type: 'text', unique: true },
    size: { type: 'integer', notNull: true },
  });
  // Newest first, with the id as tie-break, is the order of `GET /v1/batches`.
  pgm.createIndex('batches', [
    { name: 'created_at', sort: 'DESC' },
    { name: 'batch_id', sort: 'DESC' },
  ]);

  pgm.createTable('jobs', {
    id: { type: 'text', primaryKey: true },
    batch_id: { type: 'text' },
    position: { type: 'integer' },
    game: { type: 'text', notNull: true },
    status: { type: 'text', notNull: true },
    summary: { type: 'text' },
    created_at: { type: 'timestamptz', notNull: true },
    finished_at: { type: 'timestamptz', notNull: true },
    resource: { type: 'jsonb', notNull: true },
  });
  // A batch's jobs in submission order, all of them or in one status (the id breaks a tie).
  pgm.createIndex('jobs', ['batch_id', 'position', 'id']);
  pgm.createIndex('jobs', ['batch_id', 'status', 'position', 'id']);
  // Retention deletes by age.
  pgm.createIndex('jobs', 'finished_at');
  pgm.createIndex('jobs', 'created_at');
}

export function down(pgm: MigrationBuilder): void {
  pgm.dropTable('jobs');
  pgm.dropTable('batches');
}
