import { type GameId, InputError } from '@satfarm/games';

/** File name endings that name a game: `.cnf`, `.dimacs`, and `.<game>` or `.<game>.json`. */
const EXTENSIONS: ReadonlyArray<readonly [RegExp, GameId]> = [
  [/\.(cnf|dimacs)$/i, 'cnf'],
  ...(['cube', 'snake', 'hexahop', 'towers', 'singles', 'tictactoe'] as const).map(
    (game) => [new RegExp(`\\.${game}(\\.json)?$`, 'i'), game] as const,
  ),
];

/**
 * Keys of a JSON instance that only one game's format has (each game's parse lists its fields):
 * an object with keys of exactly one game is that game's.
 */
const SIGNATURE_KEYS: Readonly<Record<Exclude<GameId, 'cnf'>, readonly string[]>> = {
  cube: ['scramble', 'facelets'],
  snake: ['apples', 'body', 'survive', 'walls', 'spawn'],
  hexahop: ['level', 'map'],
  towers: ['n', 'top', 'bottom', 'left', 'right', 'givens'],
  singles: ['grid'],
  tictactoe: ['board'],
};

/** DIMACS: comment lines, then the problem line. */
const DIMACS = /^(\s*c[^\n]*\n)*\s*p\s+cnf\s/;
/** Tatham game IDs: Towers' `N:clue/clue/...`, Singles' `WxH:cells` or `N:cells` (no `/`). */
const TOWERS_ID = /^\d+(d[a-z])?:[^,]*\//;
const SINGLES_ID = /^\d+(x\d+)?(d[a-z])?:[0-9a-z]+$/;

/**
 * The game of an instance file, by its name's ending, else by its content (`content` as
 * `parseInputText` read it: parsed JSON or text): DIMACS text is cnf, a Tatham game ID Towers'
 * or Singles', a JSON object the game whose own keys it has (`{"dimacs": ...}` is cnf). Content
 * that fits no game or several is refused, naming `game`, with the advice to pass `--game`.
 */
export function detectGame(name: string, content: unknown): GameId {
  const byName = EXTENSIONS.find(([ending]) => ending.test(name));
  if (byName !== undefined) return byName[1];
  const candidates = gamesByContent(content);
  if (candidates.length === 1) return candidates[0]!;
  throw new InputError(
    'game',
    candidates.length === 0
      ? 'cannot tell the game from the file name or content; pass --game'
      : `the content fits ${candidates.join(' and ')}; pass --game`,
  );
}

function gamesByContent(content: unknown): GameId[] {
  if (typeof content === 'string') {
    const text = content.trim();
    if (DIMACS.test(`${text}\n`)) return ['cnf'];
    if (TOWERS_ID.test(text)) return ['towers'];
    if (SINGLES_ID.test(text)) return ['singles'];
    return [];
  }
  if (typeof content !== 'object' || content === null || Array.isArray(content)) return [];
  const keys = Object.keys(content);
  if (keys.includes('dimacs')) return ['cnf'];
  return (Object.entries(SIGNATURE_KEYS) as Array<[GameId, readonly string[]]>)
    .filter(([, signature]) => signature.some((key) => keys.includes(key)))
    .map(([game]) => game);
}
