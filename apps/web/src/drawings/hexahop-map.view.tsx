import type { HexahopRender } from '@satfarm/games';

import { FrameControls } from './frame-controls.view';
import { useFramePlayer } from './frame-player.hook';

/** Tile colours and names by the map's characters (libs/games hexahop.map-text TILE_CHARS). */
const TILES: Record<string, { fill: string; name: string; raised?: boolean }> = {
  o: { fill: '#b8b8b0', name: 'floor' },
  g: { fill: '#5cb85c', name: 'green (collapses)' },
  G: { fill: '#2e7d32', name: 'green wall', raised: true },
  T: { fill: '#9c27b0', name: 'trampoline' },
  S: { fill: '#ff9800', name: 'spinner' },
  '#': { fill: '#5d5d5d', name: 'stone wall', raised: true },
  b: { fill: '#42a5f5', name: 'blue' },
  B: { fill: '#1565c0', name: 'blue wall', raised: true },
  L: { fill: '#e53935', name: 'laser' },
  I: { fill: '#c8f0ff', name: 'ice' },
  i: { fill: '#90a4ae', name: 'de-iced' },
  U: { fill: '#8d6e63', name: 'builder' },
  W: { fill: '#fbc02d', name: 'switch' },
  P: { fill: '#a1887f', name: 'boat' },
  l: { fill: '#7986cb', name: 'lift (down)' },
  H: { fill: '#3949ab', name: 'lift (up)', raised: true },
};

const R = 16;
const SQRT3 = Math.sqrt(3);

/**
 * A Hex-a-Hop level: flat-topped hexes in the game's axial coordinates (N is one row up, SE one
 * column right), the player, and the path walked so far, replayed move by move.
 */
export function HexahopMapView({ render }: { render: HexahopRender }) {
  const { bounds, frames } = render;
  const player = useFramePlayer(frames.length, { intervalMs: 450, loop: true });
  const frame = frames[player.index]!;
  // Axial (x, y) to pixels: columns 1.5 R apart, each column half a hex lower than the last.
  const px = (x: number): number => x * 1.5 * R;
  const py = (x: number, y: number): number => (y + x / 2) * SQRT3 * R;
  const box = pixelBox(render, px, py);
  const hex = (cx: number, cy: number): string =>
    Array.from({ length: 6 }, (_, k) => {
      const a = (Math.PI / 3) * k;
      return `${(cx + (R - 1) * Math.cos(a)).toFixed(1)},${(cy + (R - 1) * Math.sin(a)).toFixed(1)}`;
    }).join(' ');
  const path = frames.slice(0, player.index + 1).map((f) => `${px(f.player[0])},${py(...f.player)}`);
  const present = new Set(frame.rows.join(''));
  return (
    <div
      class="drawing hexahop"
      data-testid="hexahop-map"
      data-frame={player.index}
      data-frames={frames.length}
      data-green={
        frame.rows
          .join('')
          .split('')
          .filter((c) => c === 'g').length
      }
    >
      <svg
        viewBox={`${box.left} ${box.top} ${box.width} ${box.height}`}
        width={box.width}
        height={box.height}
        role="img"
        aria-label={render.name}
      >
        {/* Tiles gone since the start (green tiles sink once left) stay as outlines, under the path. */}
        {frames[0]!.rows.flatMap((row, dy) =>
          row.split('').map((ch, dx) => {
            if (TILES[ch] === undefined || frame.rows[dy]?.[dx] !== '.') return null;
            const x = bounds.xmin + dx;
            const y = bounds.ymin + dy;
            return (
              <polygon
                key={`gone-${dx}-${dy}`}
                data-tile="gone"
                points={hex(px(x), py(x, y))}
                fill="none"
                stroke="#b9c3c9"
                stroke-dasharray="3 2"
              />
            );
          }),
        )}
        {frame.rows.flatMap((row, dy) =>
          row.split('').map((ch, dx) => {
            const tile = TILES[ch];
            if (tile === undefined) return null;
            const x = bounds.xmin + dx;
            const y = bounds.ymin + dy;
            return (
              <polygon
                key={`${dx}-${dy}`}
                data-tile={ch}
                points={hex(px(x), py(x, y))}
                fill={tile.fill}
                stroke={tile.raised ? '#111' : '#fff'}
                stroke-width={tile.raised ? 2.5 : 1}
              />
            );
          }),
        )}
        <polyline
          points={path.join(' ')}
          fill="none"
          stroke="#d81b60"
          stroke-width={3}
          stroke-linejoin="round"
        />
        <circle
          data-testid="hexahop-player"
          cx={px(frame.player[0])}
          cy={py(...frame.player)}
          r={R * 0.45}
          fill="#fff"
          stroke="#d81b60"
          stroke-width={3}
        />
      </svg>
      <ul class="legend">
        {Object.entries(TILES)
          .filter(([ch]) => present.has(ch))
          .map(([ch, tile]) => (
            <li key={ch}>
              <span class="swatch" style={{ background: tile.fill }} />
              {tile.name}
            </li>
          ))}
      </ul>
      <FrameControls
        player={player}
        label={`${render.name}: move ${frame.t} of ${frames.length - 1}${frame.move ? ` (${frame.move})` : ''} · score ${frame.score}${render.par === undefined ? '' : ` · par ${render.par}`}`}
      />
    </div>
  );
}

/** The pixel box of every tile that is ever solid and every place the player stands. */
function pixelBox(
  render: HexahopRender,
  px: (x: number) => number,
  py: (x: number, y: number) => number,
): { left: number; top: number; width: number; height: number } {
  const xs: number[] = [];
  const ys: number[] = [];
  const take = (x: number, y: number): void => {
    xs.push(px(x));
    ys.push(py(x, y));
  };
  for (const frame of render.frames) {
    take(...frame.player);
    frame.rows.forEach((row, dy) => {
      for (let dx = 0; dx < row.length; dx++)
        if (row[dx] !== '.') take(render.bounds.xmin + dx, render.bounds.ymin + dy);
    });
  }
  const left = Math.min(...xs) - R - 2;
  const top = Math.min(...ys) - (SQRT3 * R) / 2 - 2;
  return {
    left,
    top,
    width: Math.max(...xs) + R + 2 - left,
    height: Math.max(...ys) + (SQRT3 * R) / 2 + 2 - top,
  };
}
