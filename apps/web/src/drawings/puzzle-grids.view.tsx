import type { SinglesRender, TicTacToeRender, TowersRender } from '@satfarm/games';

/** A Towers grid: clues around it, givens in bold, the solved heights once there is an answer. */
export function TowersGridView({ render }: { render: TowersRender }) {
  const { n, clues, givens, grid } = render;
  const given = new Map(givens.map(([r, c, h]) => [`${r},${c}`, h]));
  const clue = (value: number | undefined, key: string) => (
    <td key={key} class="clue">
      {value ? value : ''}
    </td>
  );
  return (
    <div class="drawing towers" data-testid="towers-grid" data-solved={grid !== undefined}>
      <table class="grid">
        <tbody>
          <tr>
            <td />
            {Array.from({ length: n }, (_, c) => clue(clues.top[c], `t${c}`))}
            <td />
          </tr>
          {Array.from({ length: n }, (_, r) => (
            <tr key={r}>
              {clue(clues.left[r], 'l')}
              {Array.from({ length: n }, (_, c) => {
                const g = given.get(`${r},${c}`);
                const h = grid?.[r]?.[c] ?? g;
                return (
                  <td key={c} class={g !== undefined ? 'cell given' : 'cell'} data-cell>
                    {h ?? ''}
                  </td>
                );
              })}
              {clue(clues.right[r], 'r')}
            </tr>
          ))}
          <tr>
            <td />
            {Array.from({ length: n }, (_, c) => clue(clues.bottom[c], `b${c}`))}
            <td />
          </tr>
        </tbody>
      </table>
    </div>
  );
}

/** A Singles grid: the numbers, the shaded cells once solved. */
export function SinglesGridView({ render }: { render: SinglesRender }) {
  const black = new Set((render.black ?? []).map(([r, c]) => `${r},${c}`));
  return (
    <div class="drawing singles" data-testid="singles-grid" data-solved={render.black !== undefined}>
      <table class="grid">
        <tbody>
          {render.grid.map((row, r) => (
            <tr key={r}>
              {row.map((value, c) => (
                <td
                  key={c}
                  class={black.has(`${r},${c}`) ? 'cell black' : 'cell'}
                  data-cell
                  data-black={black.has(`${r},${c}`)}
                >
                  {value}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A k-in-a-row position: the winning move for the player to move, when there is one. */
export function TicTacToeBoardView({ render }: { render: TicTacToeRender }) {
  const [mr, mc] = render.move ?? [-1, -1];
  return (
    <div class="drawing tictactoe" data-testid="tictactoe-board">
      <table class="grid">
        <tbody>
          {render.board.map((row, r) => (
            <tr key={r}>
              {row.split('').map((mark, c) => {
                const winning = r === mr && c === mc;
                return (
                  <td key={c} class={winning ? 'cell winning' : 'cell'} data-cell>
                    {winning ? render.player : mark === '.' ? '' : mark}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <p class="caption">
        {render.player} to move, {render.k} in a row wins
        {render.move === undefined
          ? ''
          : render.move === null
            ? ': no winning move'
            : `: play row ${mr + 1}, column ${mc + 1}`}
      </p>
    </div>
  );
}

/** A formula's size and, when satisfiable, its true variables. */
export function CnfSummaryView({
  render,
}: {
  render: { vars: number; clauses: number; trueVariables?: number[] };
}) {
  const shown = render.trueVariables?.slice(0, 300);
  return (
    <div class="drawing cnf" data-testid="cnf-summary">
      <p>
        {render.vars} variables, {render.clauses} clauses
        {render.trueVariables === undefined ? '' : `; ${render.trueVariables.length} true in the model`}
      </p>
      {shown !== undefined && (
        <p class="model">
          {shown.join(' ')}
          {render.trueVariables!.length > shown.length ? ' …' : ''}
        </p>
      )}
    </div>
  );
}
