import { createHash } from 'node:crypto';

import type { FormulaMeaning } from '@satfarm/engine';
import type { EncodingChoices } from '@satfarm/games';

import { canonicalJson } from './batch-plan.js';

/** The longest instance JSON (UTF-8 bytes) the header shows whole; a longer one shows its summary. */
export const HEADER_INSTANCE_MAX_BYTES = 2048;

/** What the comment header of `satfarm encode`'s DIMACS says (docs/cli.md#encode). */
export interface EncodeHeaderFacts {
  version: string;
  game: string;
  /** The instance as the user gave it: a JSON value, or text (DIMACS, a Tatham game ID). */
  input: unknown;
  /** The game's one-line summary of the instance (`GameDefinition.summarize`). */
  summary: string;
  /** Planning games: the horizon encoded; absent for a single-solve game. */
  horizon?: number;
  /** The encoding choices given (`--encoding`); absent: the game's defaults. */
  encoding?: EncodingChoices;
  meaning: FormulaMeaning;
}

/** One comment line: `c ` and the text on one line. */
function commentLine(text: string): string {
  return `c ${text.replace(/[\r\n]+/g, ' ')}\n`;
}

/** The SHA-256 of the instance's canonical JSON (keys sorted), hex: the same instance, the same hash. */
export function instanceSha256(input: unknown): string {
  return createHash('sha256').update(canonicalJson(input)).digest('hex');
}

/**
 * The `c` lines written before a formula's `p cnf` line: satfarm's version, the game, the instance
 * (its compact JSON, or past `HEADER_INSTANCE_MAX_BYTES` its summary) and the SHA-256 of its
 * canonical JSON, the horizon, the encoding choices, and what SAT and UNSAT mean.
 */
export function encodeHeader(facts: EncodeHeaderFacts): string {
  const json = JSON.stringify(facts.input);
  const bytes = Buffer.byteLength(json, 'utf8');
  const lines = [
    `satfarm ${facts.version} encode: the formula satfarm solve gives a solver`,
    `game: ${facts.game}`,
    bytes <= HEADER_INSTANCE_MAX_BYTES
      ? `instance: ${json}`
      : `instance: ${facts.summary} (summary; its JSON is ${bytes} bytes)`,
    `instance sha256: ${instanceSha256(facts.input)} (of its canonical JSON, keys sorted)`,
    facts.horizon === undefined ? 'horizon: none (one formula)' : `horizon: ${facts.horizon}`,
    facts.encoding === undefined
      ? "encoding: the game's defaults"
      : `encoding: ${canonicalJson(facts.encoding)}`,
    `SAT: ${facts.meaning.sat}`,
    `UNSAT: ${facts.meaning.unsat}`,
    ...facts.meaning.notes.map((note) => `note: ${note}`),
  ];
  return lines.map(commentLine).join('');
}
