import { InvalidArgumentError } from 'commander';

/** A commander argument parser for a positive integer, with the option's name in the error. */
export function positiveInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1) {
    throw new InvalidArgumentError(`expected a positive integer, got '${value}'`);
  }
  return n;
}

/** A commander argument parser for a non-negative integer. */
export function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n)) {
    throw new InvalidArgumentError(`expected a non-negative integer, got '${value}'`);
  }
  return n;
}

/** A commander argument parser for a positive number of seconds. */
export function positiveSeconds(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0) {
    throw new InvalidArgumentError(`expected a positive number of seconds, got '${value}'`);
  }
  return n;
}
