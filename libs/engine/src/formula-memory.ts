import { usableMemory } from '@satfarm/solver';

/**
 * The default memory of one horizon's formula (its literals, 4 bytes each) in a process with
 * `slots` solver slots: an eighth of the memory the process may use (the machine's, or its
 * cgroup's limit), shared among them. A process holds three to four times its formula's literals
 * while building it (a 100x100 Snake at horizon 197: 46 MiB of literals, 154 MiB more resident;
 * the growing array is copied, the variables are named), and each slot's solver holds the
 * formula again in its own structures. On a 24 GiB machine with 2 slots: 1.5 GiB.
 */
export function defaultMaxFormulaBytes(slots: number, memory: number = usableMemory()): number {
  return Math.floor(memory / 8 / Math.max(1, slots));
}
