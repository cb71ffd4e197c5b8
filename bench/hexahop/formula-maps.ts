/**
 * Small maps for the formula fingerprints (hexahop-formula-hashes.bench.ts): those of the
 * encoder's unit spec and of the CLI spec, each rule of the game on a few cells, at a few horizons.
 */
export const FINGERPRINT_MAPS: {
  name: string;
  input: { map: string[]; start: [number, number]; items?: [number, number, string][] };
  horizons: number[];
  variants?: Record<string, number>[];
}[] = [
  {
    name: 'green tiles around a floor tile',
    input: { map: ['.ggg.', 'gg.gg', '.gog.'], start: [2, 2] },
    horizons: [1, 3, 6, 10],
  },
  {
    name: 'blue tiles and a blue wall',
    input: { map: ['bgbo', 'gBgb', '.gg.'], start: [3, 0] },
    horizons: [1, 3, 6, 10],
  },
  {
    name: 'green walls and a stone wall',
    input: { map: ['#gog', 'GGo.'], start: [0, 0] },
    horizons: [1, 3, 6, 10],
  },
  {
    name: 'trampolines, walls and a chain',
    input: { map: ['ogTgo', 'g#.Tg', 'gTTgg'], start: [0, 0] },
    horizons: [1, 3, 6, 10],
  },
  {
    name: 'lifts up and down and a trampoline',
    input: { map: ['glgH', 'oHgo', 'ggTg'], start: [0, 1] },
    horizons: [1, 3, 6, 10],
  },
  {
    name: 'lifts and a stone wall',
    input: { map: ['ogl', 'gHg', '#gg'], start: [0, 0] },
    horizons: [1, 3, 6, 10],
  },
  { name: 'ice slides', input: { map: ['gIIg', 'o.Ig', 'ggg#'], start: [0, 1] }, horizons: [1, 3, 6, 10] },
  {
    name: 'a spinner turning tiles round it',
    input: { map: ['......', '..g...', '.oSg..', '..gSg.', '...g..', '......'], start: [1, 2] },
    horizons: [1, 3, 6, 10],
  },
  {
    name: 'a laser destroying a green from afar',
    input: { map: ['......', '.oL.g.', '.ggg..', '...o..'], start: [1, 1] },
    horizons: [1, 3, 6, 10],
  },
  {
    name: 'a laser hitting a laser, which explodes',
    input: { map: ['......', '.oL.L.', '.g.gg.', '.o....'], start: [1, 1] },
    horizons: [1, 3, 6, 10],
  },
  {
    name: 'ice splitting a laser beam',
    input: { map: ['......', '.oL.I.', '.g....', '.o..g.'], start: [1, 1] },
    horizons: [1, 3, 6, 10],
  },
  {
    name: 'a builder making a bridge',
    input: { map: ['..##..', '.oU.go', '.##...'], start: [1, 1] },
    horizons: [1, 3, 6, 10],
  },
  {
    name: 'a boat floating over water',
    input: { map: ['.......', '.oP..go', '.......'], start: [1, 1] },
    horizons: [1, 3, 6, 10],
  },
  {
    name: 'an anti-ice item spent on ice',
    input: { map: ['ooIIg', '.gIgo'], start: [0, 0], items: [[1, 0, 'anti-ice']] },
    horizons: [1, 3, 6, 10],
  },
  {
    name: 'a jump item used in place',
    input: { map: ['ob.o', '.ggg'], start: [0, 0], items: [[1, 0, 'jump']] },
    horizons: [1, 3, 6, 10],
  },
  {
    name: 'lasers hit in order one',
    input: {
      map: ['.......', '.oLg.g.', '.LIog..', '.oo....', '.LL.LL.', '.......'],
      start: [1, 1],
      items: [[4, 4, 'jump']],
    },
    horizons: [1, 3, 6, 10],
  },
  {
    name: 'lasers hit in order two',
    input: { map: ['.......', '.ogIgL.', '.LIgLg.', '.g.ggI.', '.LIg.L.', '.......'], start: [1, 1] },
    horizons: [1, 3, 6, 10],
  },
  {
    name: 'lasers hit in order three',
    input: {
      map: ['......', '.ooIL.', '.LLLg.', '.g.gI.', '..o.L.', '......'],
      start: [1, 1],
      items: [[4, 2, 'jump']],
    },
    horizons: [1, 3, 6, 10],
  },
  {
    name: 'walk round water',
    input: { map: ['..ogo', '.o...', '.o...'], start: [1, 2] },
    horizons: [1, 3, 6, 10],
  },
  {
    name: 'walk round to a laser',
    input: { map: ['..g.', '....', '..L.', '.oo.'], start: [1, 3] },
    horizons: [1, 3, 6, 10],
  },
  {
    name: 'walk past a trampoline',
    input: { map: ['..go', '.To.', '.o..'], start: [1, 2] },
    horizons: [1, 3, 6, 10],
  },
  {
    name: 'explosions one',
    input: { map: ['.....', '.o.L.', '.gLL.', '.LIo.', '.....'], start: [3, 3], items: [[1, 3, 'jump']] },
    horizons: [1, 3, 6, 10],
  },
  {
    name: 'explosions two',
    input: {
      map: ['......', '.ILg..', '.LIg..', '.LIgo.', '......'],
      start: [4, 3],
      items: [[2, 3, 'jump']],
    },
    horizons: [1, 3, 6, 10],
  },
  {
    name: 'explosions three',
    input: {
      map: ['.......', '.gILoI.', '.gILLI.', '..Lggo.', '.......'],
      start: [5, 3],
      items: [[3, 1, 'jump']],
    },
    horizons: [1, 3, 6, 10],
  },
  {
    name: 'ice ring',
    input: { map: ['..ooo..', '...L...', '...g...', '...II..', '..I.I..', '..II...'], start: [3, 0] },
    horizons: [1, 2, 4],
  },
  {
    name: 'ice ring shot',
    input: {
      map: ['......o', '.....L.', '.......', '...II..', '..I.I..', '..II...', '.......', '.g.....'],
      start: [6, 0],
    },
    horizons: [1, 2],
  },
  { name: 'no win', input: { map: ['g.g', 'og.'], start: [0, 1] }, horizons: [3, 8] },
  {
    name: 'rolling spinners',
    input: {
      map: [
        '...........',
        '...........',
        '...........',
        '...........',
        '....og.g...',
        '.....SS....',
        '...........',
        '...........',
        '...........',
        '...........',
        '...........',
      ],
      start: [4, 4],
    },
    horizons: [2, 4, 7],
    variants: [{ window: 0 }, { window: 3 }],
  },
  {
    name: 'spinner off the map',
    input: { map: ['gSS', '.o.'], start: [1, 1] },
    horizons: [1, 3],
    variants: [{ window: 3 }],
  },
  {
    name: 'floor off the map',
    input: { map: ['oSS', '...', '..g'], start: [0, 0] },
    horizons: [1, 3],
    variants: [{ window: 3 }],
  },
  { name: 'cli laser map', input: { map: ['ogLg', '..og'], start: [0, 0] }, horizons: [1, 3, 5] },
];
