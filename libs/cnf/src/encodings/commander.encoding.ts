/*
 * Klieber and Kwon's commander at-most-one (2007), groups of 3, applied level by level until at
 * most 6 literals remain, which get the pairwise encoding.
 * Variables: one commander c per group of 2 or 3 (a group of one is its own commander), so about
 *   n/3 + n/9 + ... ~ n/2 auxiliaries in all.
 * Clauses per group g of size s: s(s-1)/2 pairwise (at most one in g), s clauses g_i -> c, and one
 *   clause c -> (g_1 | ... | g_s), i.e. 7 per full group, ~ 7n/3 per level and ~ 3.5n in all,
 *   plus at most 15 for the last pairwise level.
 */
import type { Lit } from '../variable-pool.js';
import { addClause, type EncodingSink } from './encoding-sink.js';
import { pairwiseAtMostOne } from './pairwise.encoding.js';

const GROUP_SIZE = 3;
const PAIRWISE_LIMIT = 6;

/**
 * At most one of `lits` is true, by commander variables: each commander is equivalent to "some
 * literal of its group is true", and at most one commander is true.
 */
export function commanderAtMostOne(sink: EncodingSink, lits: readonly Lit[]): void {
  let level: readonly Lit[] = lits;
  while (level.length > PAIRWISE_LIMIT) {
    const commanders: Lit[] = [];
    for (let start = 0; start < level.length; start += GROUP_SIZE) {
      const group = level.slice(start, start + GROUP_SIZE);
      if (group.length === 1) {
        commanders.push(group[0]!);
        continue;
      }
      const c = sink.pool.fresh();
      pairwiseAtMostOne(sink, group);
      for (const g of group) sink.add([-g, c]);
      addClause(sink, [-c, ...group]);
      commanders.push(c);
    }
    level = commanders;
  }
  pairwiseAtMostOne(sink, level);
}
