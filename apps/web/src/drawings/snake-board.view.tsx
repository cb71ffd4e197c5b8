import type { SnakeRender } from '@satfarm/games';

import { FrameControls } from './frame-controls.view';
import { useFramePlayer } from './frame-player.hook';

const CELL = 30;

/**
 * The snake's board, animated step by step over the plan, with the head's trail: walls dark,
 * apples red, the spawn chain's cells still to appear as rings (the next one numbered 1).
 */
export function SnakeBoardView({ render }: { render: SnakeRender }) {
  const { width, height, frames, walls = [] } = render;
  const player = useFramePlayer(frames.length, { intervalMs: 280, loop: true });
  const frame = frames[player.index]!;
  const centre = ([x, y]: [number, number]): [number, number] => [x * CELL + CELL / 2, y * CELL + CELL / 2];
  const trail = frames
    .slice(0, player.index + 1)
    .flatMap((f) => (f.head === undefined ? [] : [centre(f.head).join(',')]));
  const eaten = frames.slice(1, player.index + 1).filter((f) => f.ate !== undefined).length;
  return (
    <div
      class="drawing snake"
      data-testid="snake-board"
      data-frame={player.index}
      data-frames={frames.length}
      data-apples={frame.apples.length}
      data-walls={walls.length}
      data-spawn={frame.spawn?.length ?? 0}
    >
      <svg
        viewBox={`0 0 ${width * CELL} ${height * CELL}`}
        width={width * CELL}
        height={height * CELL}
        role="img"
        aria-label="snake board"
      >
        {Array.from({ length: width * height }, (_, i) => (
          <rect
            key={i}
            x={(i % width) * CELL}
            y={Math.floor(i / width) * CELL}
            width={CELL}
            height={CELL}
            fill={((i % width) + Math.floor(i / width)) % 2 === 0 ? '#eef3e8' : '#e2ead9'}
          />
        ))}
        {walls.map(([x, y], i) => (
          <rect key={`w${i}`} data-wall x={x * CELL} y={y * CELL} width={CELL} height={CELL} fill="#455a64" />
        ))}
        {(frame.spawn ?? []).map(([x, y], i) => (
          <g key={`s${i}`} data-spawn={i}>
            <circle
              cx={x * CELL + CELL / 2}
              cy={y * CELL + CELL / 2}
              r={CELL * 0.28}
              fill="none"
              stroke="#d32f2f"
              stroke-opacity={i === 0 ? 0.9 : 0.35}
              stroke-dasharray="3 2"
            />
            {i === 0 && (
              <text
                x={x * CELL + CELL / 2}
                y={y * CELL + CELL / 2 + 4}
                text-anchor="middle"
                font-size={11}
                fill="#d32f2f"
              >
                1
              </text>
            )}
          </g>
        ))}
        {frame.apples.map(([x, y], i) => (
          <circle
            key={`a${i}`}
            data-apple
            cx={x * CELL + CELL / 2}
            cy={y * CELL + CELL / 2}
            r={CELL * 0.3}
            fill="#d32f2f"
          />
        ))}
        <polyline
          points={trail.join(' ')}
          fill="none"
          stroke="#7e57c2"
          stroke-opacity={0.35}
          stroke-width={3}
        />
        {frame.body
          .slice()
          .reverse()
          .map(([x, y], i, all) => {
            const head = i === all.length - 1;
            return (
              <rect
                key={`b${i}`}
                data-body={head ? 'head' : 'segment'}
                x={x * CELL + 3}
                y={y * CELL + 3}
                width={CELL - 6}
                height={CELL - 6}
                rx={head ? 9 : 6}
                fill={head ? '#1b5e20' : `hsl(125, 45%, ${62 - (18 * i) / Math.max(1, all.length - 1)}%)`}
              />
            );
          })}
      </svg>
      <FrameControls
        player={player}
        label={`step ${frame.t} of ${frames.length - 1} · length ${frame.length} · apples eaten ${eaten}${
          frame.spawn === undefined ? '' : ` · to spawn ${frame.spawn.length}`
        }`}
      />
    </div>
  );
}
