import type { CubeRender, FaceGrid } from '@satfarm/games';

import { FrameControls } from './frame-controls.view';
import { useFramePlayer } from './frame-player.hook';

type Net = CubeRender['start'];

/** Sticker colours by face letter (the usual scheme: white up, green front). */
const COLOURS: Record<string, string> = {
  U: '#f4f4f4',
  R: '#c62828',
  F: '#2e9d4f',
  D: '#fdd835',
  L: '#f57c00',
  B: '#1e5bc6',
};

/** Where each face sits in the unfolded cross, in face widths: U over F, then L F R B, D under. */
const PLACES: Record<keyof Net, [number, number]> = {
  U: [1, 0],
  L: [0, 1],
  F: [1, 1],
  R: [2, 1],
  B: [3, 1],
  D: [1, 2],
};

/** The cube's net and a player over the solution's moves (the start is the scrambled cube). */
export function CubeNetView({ render }: { render: CubeRender }) {
  const nets = [render.start, ...render.frames.map((f) => f.net)];
  const player = useFramePlayer(nets.length, { intervalMs: 700, autoplay: nets.length > 1 });
  const moves = render.frames.map((f) => f.move);
  const net = nets[player.index]!;
  return (
    <div class="drawing cube" data-testid="cube-net" data-frame={player.index} data-frames={nets.length}>
      <NetSvg net={net} size={render.size} />
      {moves.length > 0 && (
        <>
          <ol class="moves" aria-label="moves">
            {moves.map((m, i) => (
              <li key={i} class={i === player.index - 1 ? 'current' : i < player.index - 1 ? 'done' : ''}>
                {m}
              </li>
            ))}
          </ol>
          <FrameControls
            player={player}
            label={
              player.index === 0
                ? 'scrambled'
                : `move ${player.index} of ${moves.length}: ${moves[player.index - 1]}`
            }
          />
        </>
      )}
    </div>
  );
}

function NetSvg({ net, size }: { net: Net; size: number }) {
  const sticker = size === 2 ? 26 : 19;
  const gap = 6;
  const face = sticker * size;
  const unit = face + gap;
  return (
    <svg
      viewBox={`0 0 ${unit * 4} ${unit * 3}`}
      width={unit * 4}
      height={unit * 3}
      role="img"
      aria-label="cube net"
    >
      {(Object.keys(PLACES) as (keyof Net)[]).map((name) => (
        <FaceSvg
          key={name}
          name={name}
          grid={net[name]}
          x={PLACES[name][0] * unit}
          y={PLACES[name][1] * unit}
          sticker={sticker}
        />
      ))}
    </svg>
  );
}

function FaceSvg(props: { name: string; grid: FaceGrid; x: number; y: number; sticker: number }) {
  const { name, grid, x, y, sticker } = props;
  return (
    <g data-face={name}>
      {grid.flatMap((row, r) =>
        row.map((colour, c) => (
          <rect
            key={`${r}-${c}`}
            data-colour={colour}
            x={x + c * sticker + 1}
            y={y + r * sticker + 1}
            width={sticker - 2}
            height={sticker - 2}
            rx={3}
            fill={COLOURS[colour] ?? '#888'}
            stroke="#222"
            stroke-width={1}
          />
        )),
      )}
    </g>
  );
}
