import type { GameId } from '@satfarm/games';
import type { JobOptions } from '@satfarm/queue';
import { useState } from 'preact/hooks';

import { ApiError } from '../api/farm-api.client';
import { useFarm } from '../api/farm-connection.context';
import { GAME_CATALOG, instanceFromText } from '../model/game-catalog';

/**
 * Submits a job: a game, its instance as text (JSON, a Tatham ID, a scramble, DIMACS) and the
 * usual options. The API checks everything; its 400 message, naming the field, is shown as is.
 */
export function SubmitFormView({ onSubmitted }: { onSubmitted: (jobId: string) => void }) {
  const { api } = useFarm();
  const [game, setGame] = useState<GameId>('cube');
  const [text, setText] = useState('');
  const [cubeSize, setCubeSize] = useState(3);
  const [maxHorizon, setMaxHorizon] = useState('');
  const [parallelism, setParallelism] = useState('');
  const [timeoutSec, setTimeoutSec] = useState('');
  const [unique, setUnique] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const entry = GAME_CATALOG[game];

  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const options: JobOptions = {
      ...numberOption('maxHorizon', maxHorizon),
      ...numberOption('parallelism', parallelism),
      ...numberOption('timeoutSec', timeoutSec),
      ...(unique ? { unique: true } : {}),
    };
    try {
      const { id } = await api.submit({
        game,
        instance: instanceFromText(game, text, cubeSize),
        ...(Object.keys(options).length === 0 ? {} : { options }),
      });
      onSubmitted(id);
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, String(err)));
    } finally {
      setBusy(false);
    }
  };
  // The field the API named, to mark the input it came from.
  const at = (prefix: string): string => (error?.field?.startsWith(prefix) ? 'invalid' : '');

  return (
    <form class="submit" data-testid="submit-form" onSubmit={(e) => void submit(e)}>
      <div class="row">
        <label>
          game
          <select
            name="game"
            class={at('game')}
            value={game}
            onChange={(e) => setGame((e.target as HTMLSelectElement).value as GameId)}
          >
            {(Object.keys(GAME_CATALOG) as GameId[]).map((id) => (
              <option key={id} value={id}>
                {GAME_CATALOG[id].label}
              </option>
            ))}
          </select>
        </label>
        {game === 'cube' && (
          <label>
            size
            <select
              name="cubeSize"
              value={cubeSize}
              onChange={(e) => setCubeSize(Number((e.target as HTMLSelectElement).value))}
            >
              <option value={2}>2x2</option>
              <option value={3}>3x3</option>
            </select>
          </label>
        )}
        <button type="button" class="link" onClick={() => setText(entry.example.trim())}>
          example
        </button>
      </div>
      <textarea
        name="instance"
        class={at('instance')}
        rows={6}
        spellcheck={false}
        placeholder={entry.hint}
        value={text}
        onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
      />
      <div class="row options">
        {entry.planning ? (
          <>
            <label key="maxHorizon">
              max horizon
              <input
                name="maxHorizon"
                class={`short ${at('options.maxHorizon')}`}
                inputMode="numeric"
                value={maxHorizon}
                onInput={(e) => setMaxHorizon((e.target as HTMLInputElement).value)}
              />
            </label>
            <label key="parallelism">
              parallel
              <input
                name="parallelism"
                class={`short ${at('options.parallelism')}`}
                inputMode="numeric"
                value={parallelism}
                onInput={(e) => setParallelism((e.target as HTMLInputElement).value)}
              />
            </label>
          </>
        ) : (
          <label class="check" key="unique">
            <input
              type="checkbox"
              name="unique"
              checked={unique}
              onChange={(e) => setUnique((e.target as HTMLInputElement).checked)}
            />
            prove unique
          </label>
        )}
        <label key="timeoutSec">
          timeout s
          <input
            name="timeoutSec"
            class={`short ${at('options.timeoutSec')}`}
            inputMode="decimal"
            value={timeoutSec}
            onInput={(e) => setTimeoutSec((e.target as HTMLInputElement).value)}
          />
        </label>
        <button type="submit" class="primary" disabled={busy} data-testid="submit-job">
          {busy ? 'Submitting…' : 'Submit'}
        </button>
      </div>
      {error && (
        <p class="error" role="alert" data-testid="submit-error" data-field={error.field ?? ''}>
          {error.message}
        </p>
      )}
    </form>
  );
}

/** An option typed as a number: left out when empty; anything else goes to the API to judge. */
function numberOption(name: keyof JobOptions, value: string): Partial<JobOptions> {
  const trimmed = value.trim();
  if (trimmed === '') return {};
  const n = Number(trimmed);
  return { [name]: Number.isNaN(n) ? trimmed : n };
}
