import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

import type { FarmApiClient } from './farm-api.client';
import type { ProgressSocket } from './progress.socket';

/** The page's way to the farm: the HTTP client and the `/progress` socket. */
export interface FarmConnection {
  api: FarmApiClient;
  socket: ProgressSocket;
}

export const FarmConnectionContext = createContext<FarmConnection | undefined>(undefined);

/** The farm connection of the page (set up once by `App`). */
export function useFarm(): FarmConnection {
  const farm = useContext(FarmConnectionContext);
  if (farm === undefined) throw new Error('useFarm outside FarmConnectionContext');
  return farm;
}
