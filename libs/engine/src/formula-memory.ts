import { usableMemory } from '@satfarm/solver';

/**
 * The default memory of one horizon's formula (its literals, 4 bytes each) in a process with
 * `slots` solver slots: an eighth of the memory the process may use (the machine's, or its
 * cgroup's limit), shared among them, since a process holds three to four times its formula while
 * building it and each slot's solver holds it again (docs/farm.md has the measured figures).
 */
export function defaultMaxFormulaBytes(slots: number, memory: number = usableMemory()): number {
  return Math.floor(memory / 8 / Math.max(1, slots));
}
