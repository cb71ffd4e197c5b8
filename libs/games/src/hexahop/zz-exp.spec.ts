import { it } from 'vitest';
import { KissatRunner } from '@satfarm/solver';
import { hexahopGame } from './index.js';
import { encodeHexahop } from './hexahop.encode.js';

it('exp', async () => {
  const k = new KissatRunner();
  for (const spec of (process.env.HX ?? 'Hive:24').split(',')) {
    const [name, ts] = spec.split(':');
    const inst = hexahopGame.parse({ level: name });
    for (const variant of JSON.parse(process.env.VARIANTS ?? '[{}]')) {
      for (const t of ts!.split('/').map(Number)) {
        const enc = encodeHexahop(inst, t, { variant });
        const t0 = Date.now();
        const out = await k.solve({ formula: enc.formula, timeoutMs: Number(process.env.TO ?? 60) * 1000 });
        console.log(
          name,
          t,
          JSON.stringify(variant),
          enc.formula.stats.clauses,
          out.status,
          Date.now() - t0,
          'ms',
          out.stats.conflicts,
        );
      }
    }
  }
}, 900_000);
