import type { FramePlayer } from './frame-player.hook';

/** Icon paths on a 12 x 12 box (drawn, so that no font needs to have the glyphs). */
const ICONS = {
  first: 'M2 2h2v8H2zM10 2v8L4.5 6z',
  back: 'M9 2v8L3 6z',
  play: 'M3 2v8l7-4z',
  pause: 'M3 2h2.5v8H3zM6.5 2H9v8H6.5z',
  forward: 'M3 2v8l6-4z',
  last: 'M8 2h2v8H8zM2 2v8l5.5-4z',
};

function Icon({ name }: { name: keyof typeof ICONS }) {
  return (
    <svg viewBox="0 0 12 12" width="12" height="12" aria-hidden="true">
      <path d={ICONS[name]} fill="currentColor" />
    </svg>
  );
}

/** Play/pause, step and a slider for a `FramePlayer`; `label` names the frame shown. */
export function FrameControls({ player, label }: { player: FramePlayer; label: string }) {
  const { index, count } = player;
  return (
    <div class="frame-controls" data-testid="frame-controls">
      <button
        type="button"
        title="first"
        data-testid="frame-first"
        onClick={() => player.seek(0)}
        disabled={index === 0}
      >
        <Icon name="first" />
      </button>
      <button type="button" title="back" onClick={() => player.seek(index - 1)} disabled={index === 0}>
        <Icon name="back" />
      </button>
      <button type="button" title={player.playing ? 'pause' : 'play'} onClick={player.toggle}>
        <Icon name={player.playing ? 'pause' : 'play'} />
      </button>
      <button
        type="button"
        title="forward"
        onClick={() => player.seek(index + 1)}
        disabled={index >= count - 1}
      >
        <Icon name="forward" />
      </button>
      <button
        type="button"
        title="last"
        data-testid="frame-last"
        onClick={() => player.seek(count - 1)}
        disabled={index >= count - 1}
      >
        <Icon name="last" />
      </button>
      <input
        type="range"
        min={0}
        max={Math.max(0, count - 1)}
        value={index}
        aria-label="frame"
        onInput={(e) => player.seek(Number((e.target as HTMLInputElement).value))}
      />
      <span class="frame-label">{label}</span>
    </div>
  );
}
