import type { GameDefinition } from '../game-definition.js';
import { encodeSnake } from './snake.encode.js';
import { snakeDefaultMaxHorizon, snakeLowerBound } from './snake.lower-bound.js';
import type { SnakeInstance, SnakeSolution } from './snake.model.js';
import { parseSnakeInstance, parseSnakePlan } from './snake.parse.js';
import { isPddlProblem, snakeInstanceFromPddl } from './snake.pddl.js';
import { renderSnake, snakeText, type SnakeRender, summarizeSnake } from './snake.render.js';
import { joinSnakePlan, splitSnake } from './snake.split.js';
import { verifySnake } from './snake.verify.js';

export type { AppleOrder, Cell, SnakeInstance, SnakeSolution, StepOutcome, TailRule } from './snake.model.js';
export { SnakeGrid, SnakeSimulator, startCells, startingAt, startStates } from './snake.model.js';
export { parseSnakeInstance, parseSnakePlan } from './snake.parse.js';
export { isPddlProblem, snakeInstanceFromPddl, type SnakePddlInstance } from './snake.pddl.js';
export {
  DEFAULT_SNAKE_ENCODING,
  encodeSnake,
  type SnakeAmo,
  type SnakeEncodingChoices,
  snakeEncodingChoices,
} from './snake.encode.js';
export { verifySnake } from './snake.verify.js';
export { joinSnakePlan, splitSnake } from './snake.split.js';
export { renderSnake, type SnakeFrame, type SnakeRender } from './snake.render.js';
export {
  analyseSnake,
  type SnakeAnalysis,
  snakeDefaultMaxHorizon,
  snakeLowerBound,
} from './snake.lower-bound.js';
export { closedTour, generateSnake, type SnakeGenerateOptions } from './snake.generate.js';

/**
 * Snake (docs/cli.md#instance-formats): eat every apple in the fewest steps, or (`survive`) make a
 * legal walk of a given length. A planning game: horizon T asks for every apple eaten by step T;
 * `survive` S has the single horizon S (lower bound and default cap both S).
 */
export const snakeGame: GameDefinition<SnakeInstance, SnakeSolution> = {
  id: 'snake',
  planning: true,
  // An IPC-2018 PDDL problem is read as its JSON instance first (docs/cli.md#pddl-input).
  parse: (input) => parseSnakeInstance(isPddlProblem(input) ? snakeInstanceFromPddl(input as string) : input),
  lowerBound: snakeLowerBound,
  defaultMaxHorizon: snakeDefaultMaxHorizon,
  encode: encodeSnake,
  verify: verifySnake,
  planLength: (solution) => solution.path.length - 1,
  parsePlan: parseSnakePlan,
  split: splitSnake,
  joinPlan: joinSnakePlan,
  render: renderSnake,
  summarize: summarizeSnake,
  renderText: (view) => snakeText(view as SnakeRender),
};
