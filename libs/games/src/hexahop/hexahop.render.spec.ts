import { describe, expect, it } from 'vitest';

import { parseHexahopInstance } from './hexahop.parse.js';
import { hexMapLegend, hexMapLines } from './hexahop.map-text.js';
import { hexahopText, renderHexahop } from './hexahop.render.js';

const sut = renderHexahop;

describe(renderHexahop.name, () => {
  const instance = parseHexahopInstance({ map: ['..ogg', '..b..'], start: [2, 0] });

  it('draws the level in its box with the player, without a plan only the start', () => {
    const render = sut(instance, undefined);
    expect(render.bounds).toEqual({ xmin: 2, xmax: 4, ymin: 0, ymax: 1 });
    expect(render.frames).toEqual([{ t: 0, player: [2, 0], score: 0, rows: ['ogg', 'b..'] }]);
  });

  it('adds one frame per move, showing the tiles each move changed', () => {
    const render = sut(instance, { moves: ['SE', 'SE'], score: 2 });
    expect(render.frames.map((f) => [f.move, f.player, f.rows[0]])).toEqual([
      [undefined, [2, 0], 'ogg'],
      ['SE', [3, 0], 'ogg'],
      ['SE', [4, 0], 'o.g'],
    ]);
  });

  it('stops at a refused move', () => {
    expect(sut(instance, { moves: ['SE', 'N', 'SE'], score: 0 }).frames).toHaveLength(2);
  });
});

describe(hexahopText.name, () => {
  it('draws the level as it starts, then lists the moves the simulator replayed and the score they end with', () => {
    const instance = parseHexahopInstance({ map: ['..ogg', '..b..'], start: [2, 0] });
    const view = renderHexahop(instance, { moves: ['SE', 'SE'], score: 2 });
    expect(hexahopText(view)).toBe(
      [
        `${instance.name} (@ the player (on normal), g green, b blue):`,
        '@',
        '  g',
        'b   g',
        'moves (2): SE SE',
        `score ${view.frames[2]!.score}`,
      ].join('\n'),
    );
    expect(view.frames[2]!.score).toBeGreaterThan(0);
  });
});

describe(hexMapLines.name, () => {
  it("lays each tile's six neighbours around it: N and S two lines off, the others one line and one column", () => {
    // The player at (1, 1), each neighbour a different tile: N (1,0) g, NE (2,0) b, SE (2,1) T,
    // S (1,2) #, SW (0,2) G, NW (0,1) B.
    const instance = parseHexahopInstance({ map: ['.gb', 'BoT', 'G#.'], start: [1, 1] });
    const start = renderHexahop(instance, undefined);
    const lines = hexMapLines(start.frames[0]!.rows, start.bounds, start.frames[0]!.player);
    expect(lines).toEqual(['  g', 'B   b', '  @', 'G   T', '  #']);
    expect(hexMapLegend(lines)).toBe(
      'g green, B blue wall, b blue, @ the player, G green wall, T trampoline, # stone wall',
    );
  });
});
