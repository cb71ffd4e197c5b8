import type {
  CubeRender,
  HexahopRender,
  SinglesRender,
  SnakeRender,
  TicTacToeRender,
  TowersRender,
} from '@satfarm/games';
import type { JobResource } from '@satfarm/queue';

import { CubeNetView } from './cube-net.view';
import { HexahopMapView } from './hexahop-map.view';
import { CnfSummaryView, SinglesGridView, TicTacToeBoardView, TowersGridView } from './puzzle-grids.view';
import { SnakeBoardView } from './snake-board.view';

/**
 * The game's drawing of a job (`render`, from libs/games `<game>.render.ts`): the instance while it
 * runs, the answer once there is one.
 */
export function SolutionView({ job }: { job: JobResource }) {
  const render = job.render;
  if (render === undefined || render === null) return <p class="muted">Nothing to draw yet.</p>;
  // The same job may be drawn again with its answer: a new key restarts its animation.
  const key = `${job.id}:${job.status}`;
  switch (job.game) {
    case 'cube':
      return <CubeNetView key={key} render={render as CubeRender} />;
    case 'snake':
      return <SnakeBoardView key={key} render={render as SnakeRender} />;
    case 'hexahop':
      return <HexahopMapView key={key} render={render as HexahopRender} />;
    case 'towers':
      return <TowersGridView render={render as TowersRender} />;
    case 'singles':
      return <SinglesGridView render={render as SinglesRender} />;
    case 'tictactoe':
      return <TicTacToeBoardView render={render as TicTacToeRender} />;
    case 'cnf':
      return (
        <CnfSummaryView render={render as { vars: number; clauses: number; trueVariables?: number[] }} />
      );
    default:
      return <pre class="raw">{JSON.stringify(render, null, 1)}</pre>;
  }
}
