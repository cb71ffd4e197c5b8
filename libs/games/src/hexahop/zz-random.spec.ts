import { it } from 'vitest';
import { KissatRunner } from '@satfarm/solver';
import { DIRECTION_NAMES, type MoveName } from './hexahop.geometry.js';
import { type HexahopInstance, HexahopSimulator } from './hexahop.model.js';
import { parseHexahopInstance } from './hexahop.parse.js';
import { encodeHexahop } from './hexahop.encode.js';
import { verifyHexahop } from './hexahop.verify.js';
function shortestWin(instance: HexahopInstance): MoveName[] | undefined | 'big' {
  const start = new HexahopSimulator(instance);
  const seen = new Set([start.key()]);
  let frontier: { sim: HexahopSimulator; moves: MoveName[] }[] = [{ sim: start, moves: [] }];
  while (frontier.length > 0) {
    const next: typeof frontier = [];
    for (const { sim, moves } of frontier)
      for (const m of DIRECTION_NAMES) {
        const after = sim.clone();
        if (!after.move(m).ok || after.dead) continue;
        if (after.won) return [...moves, m];
        const key = after.key();
        if (seen.has(key)) continue;
        seen.add(key);
        if (seen.size > 300000) return 'big';
        next.push({ sim: after, moves: [...moves, m] });
      }
    frontier = next;
  }
  return undefined;
}
it('random', async () => {
  let seed = Number(process.env.SEED ?? 1);
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const chars = 'ggggggoooGGbbBTT#Il.H';
  const k = new KissatRunner();
  let stats = { win: 0, none: 0, big: 0, bad: 0 };
  for (let n = 0; n < Number(process.env.N ?? 50); n++) {
    const w = 3 + Math.floor(rand() * 3),
      h = 2 + Math.floor(rand() * 2);
    const rows = Array.from({ length: h }, () =>
      Array.from({ length: w }, () => chars[Math.floor(rand() * chars.length)]).join(''),
    );
    const sx = Math.floor(rand() * w),
      sy = Math.floor(rand() * h);
    rows[sy] = rows[sy]!.slice(0, sx) + 'o' + rows[sy]!.slice(sx + 1);
    if (!rows.join('').includes('g')) continue;
    const inst = parseHexahopInstance({ map: rows, start: [sx, sy] });
    const best = shortestWin(inst);
    if (best === 'big') {
      stats.big++;
      continue;
    }
    const T = best === undefined ? 14 : best.length;
    const enc = encodeHexahop(inst, T);
    const out = await k.solve({ formula: enc.formula });
    let ok: boolean;
    if (best === undefined) ok = out.status === 'unsat';
    else {
      ok = out.status === 'sat' && verifyHexahop(inst, enc.decode(out.model), T).ok;
      if (ok && T > 0) {
        const o2 = await k.solve({ formula: encodeHexahop(inst, T - 1).formula });
        ok = o2.status === 'unsat';
      }
    }
    if (best === undefined) stats.none++;
    else stats.win++;
    if (!ok) {
      stats.bad++;
      console.log(
        'MISMATCH',
        JSON.stringify(rows),
        sx,
        sy,
        best === undefined ? 'none' : best.join(' '),
        out.status,
      );
    }
  }
  console.log('STATS', JSON.stringify(stats));
}, 1_200_000);
