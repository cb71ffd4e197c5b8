import { InvalidArgumentError } from 'commander';

import { type EncodingChoices, MAX_TIMEOUT_SEC } from '@satfarm/games';

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

/** A commander argument parser for a positive number of seconds, at most the farm's limit (7 days). */
export function positiveSeconds(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0 || n > MAX_TIMEOUT_SEC) {
    throw new InvalidArgumentError(
      `expected a positive number of seconds, at most ${MAX_TIMEOUT_SEC} (7 days), got '${value}'`,
    );
  }
  return n;
}

/** A commander argument parser for a number of seconds from 0, at most the farm's limit (7 days). */
export function nonNegativeSeconds(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > MAX_TIMEOUT_SEC) {
    throw new InvalidArgumentError(
      `expected a number of seconds from 0 to ${MAX_TIMEOUT_SEC} (7 days), got '${value}'`,
    );
  }
  return n;
}

/** A commander argument parser for a JSON object of scalar values: encoding choices (`--encoding`). */
export function jsonObject(value: string): EncodingChoices {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    throw new InvalidArgumentError(`expected a JSON object, got '${value}' (${(error as Error).message})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new InvalidArgumentError(`expected a JSON object, got '${value}'`);
  }
  for (const [key, v] of Object.entries(parsed)) {
    if (!['string', 'number', 'boolean'].includes(typeof v)) {
      throw new InvalidArgumentError(
        `expected a string, number or boolean for '${key}', got ${JSON.stringify(v)}`,
      );
    }
  }
  return parsed as EncodingChoices;
}
