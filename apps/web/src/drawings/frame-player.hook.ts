import { useEffect, useState } from 'preact/hooks';

/** A player over frames 0..count-1: where it is, whether it plays, and its controls. */
export interface FramePlayer {
  index: number;
  count: number;
  playing: boolean;
  toggle: () => void;
  seek: (index: number) => void;
}

/**
 * Steps through `count` frames every `intervalMs` while playing; `loop` starts over after a pause
 * on the last frame. Starts playing when `autoplay` is set; a new `count` starts from frame 0.
 */
export function useFramePlayer(
  count: number,
  { intervalMs, autoplay = true, loop = false }: { intervalMs: number; autoplay?: boolean; loop?: boolean },
): FramePlayer {
  const [index, setIndex] = useState(0);
  const [playing, setPlaying] = useState(autoplay && count > 1);

  useEffect(() => {
    setIndex(0);
    setPlaying(autoplay && count > 1);
  }, [count, autoplay]);

  useEffect(() => {
    if (!playing) return;
    const last = count - 1;
    // The last frame stays up a little longer before a loop starts over.
    const delay = index >= last ? intervalMs * 4 : intervalMs;
    const timer = setTimeout(() => {
      if (index < last) setIndex(index + 1);
      else if (loop) setIndex(0);
      else setPlaying(false);
    }, delay);
    return () => clearTimeout(timer);
  }, [playing, index, count, intervalMs, loop]);

  return {
    index: Math.min(index, Math.max(0, count - 1)),
    count,
    playing,
    toggle: () => {
      if (!playing && index >= count - 1) setIndex(0);
      setPlaying(!playing);
    },
    seek: (i) => {
      setPlaying(false);
      setIndex(Math.max(0, Math.min(count - 1, i)));
    },
  };
}
