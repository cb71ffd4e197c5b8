import type { ClaimedStatus } from './competition-output.parser.js';

/** What minisat wrote to its result file. */
export interface MinisatResult {
  status: ClaimedStatus | undefined;
  literals: number[];
  modelClosed: boolean;
  problem: string | undefined;
}

const RESULT_WORDS: Record<string, ClaimedStatus> = { SAT: 'sat', UNSAT: 'unsat', INDET: 'unknown' };

/**
 * Parses minisat's result file: a first line `SAT`, `UNSAT` or `INDET` (interrupted, out of
 * memory, or a resource limit), and after `SAT` one line of literals ended by 0.
 */
export function parseMinisatResult(text: string): MinisatResult {
  const result: MinisatResult = { status: undefined, literals: [], modelClosed: false, problem: undefined };
  const lines = text.split('\n');
  const head = lines[0]?.trim() ?? '';
  const status = RESULT_WORDS[head];
  if (status === undefined) {
    result.problem = head === '' ? 'an empty result file' : `unexpected result '${head.slice(0, 80)}'`;
    return result;
  }
  result.status = status;
  const rest = lines.slice(1).join(' ').trim();
  if (status !== 'sat') {
    if (rest !== '') result.problem = `unexpected text after '${head}'`;
    return result;
  }
  for (const token of rest.split(/\s+/)) {
    if (token === '') continue;
    if (!/^-?\d+$/.test(token)) {
      result.problem = `'${token}' in the model is not a literal`;
      return result;
    }
    if (result.modelClosed) {
      result.problem = `literals after the model's closing 0`;
      return result;
    }
    const lit = Number(token);
    if (lit === 0) result.modelClosed = true;
    else result.literals.push(lit);
  }
  return result;
}
