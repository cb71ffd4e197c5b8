import { InputError } from '@satfarm/games';

/** The `InputError` that `check` throws; fails the test when it accepts or throws anything else. */
export function refusal(check: () => unknown): InputError {
  try {
    check();
  } catch (err) {
    if (err instanceof InputError) return err;
    throw err;
  }
  throw new Error('accepted; a refusal was expected');
}
