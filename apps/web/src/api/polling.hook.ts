import { useEffect, useRef, useState } from 'preact/hooks';

import { ApiError } from './farm-api.client';

/**
 * Calls `load` now and every `intervalMs` while the page is visible (one call at a time), and
 * again whenever `refreshKey` changes. Keeps the last value and the last error.
 */
export function usePolling<T>(
  load: () => Promise<T>,
  intervalMs: number,
  refreshKey: unknown = undefined,
): { value?: T; error?: ApiError } {
  const [state, setState] = useState<{ value?: T; error?: ApiError }>({});
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async (): Promise<void> => {
      if (document.visibilityState === 'visible') {
        try {
          const value = await loadRef.current();
          if (!stopped) setState({ value });
        } catch (err) {
          if (!stopped)
            setState((s) => ({ ...s, error: err instanceof ApiError ? err : new ApiError(0, String(err)) }));
        }
      }
      if (!stopped) timer = setTimeout(() => void tick(), intervalMs);
    };
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [intervalMs, refreshKey]);
  return state;
}
