import { describe, expect, it } from 'vitest';

import {
  installSolverReaper,
  killAllSolvers,
  liveSolverCount,
  registerLiveSolver,
} from './live-solvers.registry.js';

describe(killAllSolvers.name, () => {
  it('kills every registered solver once and forgets the ones unregistered', () => {
    const killed: string[] = [];
    const forgetA = registerLiveSolver({ kill: () => killed.push('a') });
    const forgetB = registerLiveSolver({ kill: () => killed.push('b') });
    forgetB();
    expect(liveSolverCount()).toBe(1);
    expect(killAllSolvers()).toBe(1);
    expect(killed).toEqual(['a']);
    forgetA();
    expect(liveSolverCount()).toBe(0);
  });
});

describe(installSolverReaper.name, () => {
  // SIGWINCH is ignored by default, so re-raising it here is harmless to the test process.
  it('kills the solvers on a watched signal and, when alone, gives the signal back its default effect', () => {
    const before = process.listenerCount('SIGWINCH');
    let killed = 0;
    const forget = registerLiveSolver({ kill: () => killed++ });
    const uninstall = installSolverReaper({ signals: ['SIGWINCH'] });
    try {
      expect(process.listenerCount('SIGWINCH')).toBe(before + 1);
      process.emit('SIGWINCH', 'SIGWINCH');
      expect(killed).toBe(1);
      expect(process.listenerCount('SIGWINCH')).toBe(before);
    } finally {
      uninstall();
      forget();
    }
  });

  it('stays installed when the application handles the signal itself, and uninstalls cleanly', () => {
    const before = process.listenerCount('SIGWINCH');
    const appHandler = (): void => undefined;
    process.on('SIGWINCH', appHandler);
    const exitBefore = process.listenerCount('exit');
    let killed = 0;
    const forget = registerLiveSolver({ kill: () => killed++ });
    const uninstall = installSolverReaper({ signals: ['SIGWINCH'] });
    try {
      process.emit('SIGWINCH', 'SIGWINCH');
      process.emit('SIGWINCH', 'SIGWINCH');
      expect(killed).toBe(2);
      expect(process.listenerCount('SIGWINCH')).toBe(before + 2);
      expect(process.listenerCount('exit')).toBe(exitBefore + 1);
    } finally {
      uninstall();
      forget();
      process.off('SIGWINCH', appHandler);
    }
    expect(process.listenerCount('exit')).toBe(exitBefore);
    expect(process.listenerCount('SIGWINCH')).toBe(before);
  });
});
