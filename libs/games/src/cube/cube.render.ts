import { type Face, FACES } from './cube.facelets.js';
import { applyMoveToFacelets, type CubeInstance, type CubeSolution, parseMove } from './cube.model.js';

/** One face of a net: rows of sticker colours (face letters), as seen from outside with U on top. */
export type FaceGrid = string[][];

/** What the dashboard draws for a cube: the start net and, with a plan, the net after each move. */
export interface CubeRender {
  size: number;
  metric: string;
  start: Record<Face, FaceGrid>;
  frames: { move: string; facelets: string; net: Record<Face, FaceGrid> }[];
}

/** The net of a facelet string: per face, its rows of colours. */
export function faceletNet(size: number, facelets: string): Record<Face, FaceGrid> {
  const perFace = size * size;
  const net = {} as Record<Face, FaceGrid>;
  FACES.forEach((face, f) => {
    net[face] = Array.from({ length: size }, (_, r) =>
      Array.from(facelets.slice(f * perFace + r * size, f * perFace + (r + 1) * size)),
    );
  });
  return net;
}

/** The start net and one frame per move of the solution. */
export function renderCube(instance: CubeInstance, solution: CubeSolution | undefined): CubeRender {
  const frames: CubeRender['frames'] = [];
  let facelets = instance.facelets;
  for (const name of solution?.moves ?? []) {
    const move = parseMove(name);
    if (move === undefined) break;
    facelets = applyMoveToFacelets(instance.size, facelets, move);
    frames.push({ move: name, facelets, net: faceletNet(instance.size, facelets) });
  }
  return {
    size: instance.size,
    metric: instance.metric,
    start: faceletNet(instance.size, instance.facelets),
    frames,
  };
}

/**
 * The start as a net in text (U above F, L F R B across, D below; one letter per sticker, the face
 * it belongs to when solved), then the moves.
 */
export function cubeText(view: CubeRender): string {
  const { size, start } = view;
  const row = (face: Face, r: number): string => start[face][r]!.join(' ');
  const gap = ' '.repeat(2 * size);
  const lines: string[] = [];
  for (let r = 0; r < size; r++) lines.push(`${gap}${row('U', r)}`);
  for (let r = 0; r < size; r++) lines.push((['L', 'F', 'R', 'B'] as const).map((f) => row(f, r)).join(' '));
  for (let r = 0; r < size; r++) lines.push(`${gap}${row('D', r)}`);
  const moves = view.frames.map((f) => f.move);
  lines.push(`moves (${moves.length}, ${view.metric}): ${moves.join(' ')}`);
  return lines.join('\n');
}

/** One line naming the cube: its size, metric and scramble (or facelets when given as such). */
export function summarizeCube(instance: CubeInstance): string {
  const size = `${instance.size}x${instance.size}x${instance.size}`;
  const start =
    instance.scramble === undefined
      ? `facelets ${instance.facelets}`
      : instance.scramble.join(' ') || '(solved)';
  return `${size} ${instance.metric}: ${start}`;
}
