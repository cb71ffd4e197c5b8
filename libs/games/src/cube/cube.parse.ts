import { InputError, unknownField } from '../input-error.js';
import { planMoves, splitMoves } from '../plan-input.js';
import { type CubeSize, FACES, type Face, FaceletGeometry } from './cube.facelets.js';
import {
  applyMoveToFacelets,
  CORNERS,
  type CubeInstance,
  type CubeSolution,
  CubeState,
  InvalidCubeError,
  type Move,
  moveName,
  parseMove,
  solvedFacelets,
} from './cube.model.js';

const FIELDS = new Set(['size', 'scramble', 'facelets', 'metric']);

/**
 * Parses a cube instance (docs/cli.md#instance-formats): a scramble or facelets in Kociemba's
 * order, any six characters as colours. A 2x2 is stored with its DBL corner at home, so every
 * whole-cube orientation of a solved 2x2 is solved. Every error is an `InputError` naming the
 * field, found before any solver runs.
 */
export function parseCubeInstance(input: unknown): CubeInstance {
  const obj = asObject(input);
  // A misspelt field would otherwise fall back to its default unseen (`metirc` to htm).
  for (const key of Object.keys(obj)) if (!FIELDS.has(key)) throw unknownField(key);
  const size = obj.size;
  if (size !== 2 && size !== 3) throw new InputError('size', `must be 2 or 3, got ${JSON.stringify(size)}`);
  const metric = obj.metric ?? 'htm';
  if (metric !== 'htm' && metric !== 'qtm')
    throw new InputError('metric', `must be "htm" or "qtm", got ${JSON.stringify(metric)}`);
  if (obj.scramble !== undefined && obj.facelets !== undefined) {
    throw new InputError('scramble', 'give either "scramble" or "facelets", not both');
  }
  if (obj.scramble !== undefined) {
    const moves = parseScramble(obj.scramble);
    let facelets = solvedFacelets(size);
    for (const m of moves) facelets = applyMoveToFacelets(size, facelets, m);
    return {
      size,
      metric,
      facelets: size === 2 ? faceLettersOf2x2(facelets) : facelets,
      scramble: moves.map(moveName),
    };
  }
  if (obj.facelets !== undefined) return { size, metric, facelets: parseFacelets(size, obj.facelets) };
  throw new InputError('scramble', 'missing: give "scramble" (moves) or "facelets" (a facelet string)');
}

/** Reads a scramble in Singmaster notation, moves separated by spaces (`R U2 F'`). */
export function parseScramble(text: unknown): Move[] {
  if (typeof text !== 'string')
    throw new InputError('scramble', 'must be a string of moves such as "R U2 F\'"');
  return faceMoves(splitMoves(text), 'scramble');
}

/** Each token as a face move; an unknown one is an `InputError` naming `field` and its place. */
function faceMoves(tokens: readonly string[], field: string): Move[] {
  return tokens.map((token, i) => {
    const move = parseMove(token);
    if (move === undefined)
      throw new InputError(
        field,
        `unknown move '${token}' (move ${i + 1}); moves are U R F D L B, optionally followed by 2 or '`,
      );
    return move;
  });
}

/**
 * Reads a plan a user gives for `instance` (`--plan`): face moves in Singmaster notation as a
 * list, a string (`R U2 F'`), or a report's `solution`, counted in the instance's metric (a
 * solution that names another metric is refused). Whether it solves the cube is the simulator's
 * to say when the plan is verified.
 */
export function parseCubePlan(input: unknown, instance: CubeInstance): CubeSolution {
  const { moves, object } = planMoves(input);
  const metric = object?.metric;
  if (metric !== undefined && metric !== instance.metric) {
    throw new InputError(
      'plan.metric',
      `is ${JSON.stringify(metric)}, but the cube is solved in ${instance.metric}`,
    );
  }
  faceMoves(moves, 'plan');
  return { moves, metric: instance.metric };
}

/**
 * Checks a facelet string and rewrites it in face letters: counts of colours, then the cubies,
 * twists, flips and parities. Whitespace is ignored.
 */
export function parseFacelets(size: CubeSize, raw: unknown): string {
  if (typeof raw !== 'string') throw new InputError('facelets', 'must be a string');
  const text = raw.replace(/\s+/g, '');
  const g = FaceletGeometry.of(size);
  if (text.length !== g.count)
    throw new InputError('facelets', `expected ${g.count} letters for size ${size}, got ${text.length}`);
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  if (counts.size !== 6) {
    throw new InputError(
      'facelets',
      `expected 6 colours, found ${counts.size} (${[...counts.keys()].join(' ')})`,
    );
  }
  for (const [colour, n] of counts) {
    if (n !== g.perFace)
      throw new InputError('facelets', `colour ${colour} appears ${n} times, expected ${g.perFace}`);
  }
  try {
    const facelets = size === 2 ? faceLettersOf2x2(text) : faceLettersOf3x3(text);
    CubeState.fromFacelets(size, facelets);
    return facelets;
  } catch (err) {
    if (err instanceof InvalidCubeError) throw new InputError('facelets', err.reason);
    throw err;
  }
}

function asObject(input: unknown): Record<string, unknown> {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch {
      throw new InputError('input', 'expected a JSON object such as {"size": 3, "scramble": "R U2 F\'"}');
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InputError('input', 'expected a JSON object such as {"size": 3, "scramble": "R U2 F\'"}');
  }
  return value as Record<string, unknown>;
}

function relabel(text: string, faceOfColour: Map<string, Face>): string {
  return Array.from(text, (c) => faceOfColour.get(c)!).join('');
}

/** 3x3: the centres name the colours. */
function faceLettersOf3x3(text: string): string {
  const g = FaceletGeometry.of(3);
  const faceOfColour = new Map<string, Face>();
  for (const face of FACES) {
    const colour = text[g.centreOf(face)]!;
    const other = faceOfColour.get(colour);
    if (other !== undefined)
      throw new InvalidCubeError(`centres ${other} and ${face} have the same colour ${colour}`);
    faceOfColour.set(colour, face);
  }
  return relabel(text, faceOfColour);
}

/** 2x2: the DBL corner names D, B and L; opposite colours are those that never share a corner. */
function faceLettersOf2x2(text: string): string {
  const g = FaceletGeometry.of(2);
  const together = new Map<string, Set<string>>();
  for (const c of text) together.set(c, new Set([c]));
  for (const corner of CORNERS) {
    const at = corner.split('') as Face[];
    const colours = at.map((f) => text[g.faceletOf(at, f)]!);
    if (new Set(colours).size !== 3)
      throw new InvalidCubeError(`corner at ${corner} has colours ${colours.join('')}, which no corner has`);
    for (const a of colours) for (const b of colours) together.get(a)!.add(b);
  }
  const opposite = (colour: string): string => {
    const never = [...together.keys()].filter((c) => !together.get(colour)!.has(c));
    if (never.length !== 1)
      throw new InvalidCubeError(
        `cannot tell which colour is opposite ${colour}: the corners do not pair the colours`,
      );
    return never[0]!;
  };
  const dbl: Face[] = ['D', 'B', 'L'];
  const [d, b, l] = dbl.map((f) => text[g.faceletOf(dbl, f)]!) as [string, string, string];
  const faceOfColour = new Map<string, Face>([
    [d, 'D'],
    [b, 'B'],
    [l, 'L'],
    [opposite(d), 'U'],
    [opposite(l), 'R'],
    [opposite(b), 'F'],
  ]);
  if (faceOfColour.size !== 6)
    throw new InvalidCubeError('the corners do not pair the colours into opposite faces');
  return relabel(text, faceOfColour);
}
