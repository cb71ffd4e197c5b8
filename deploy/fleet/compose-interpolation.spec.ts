import { describe, expect, it } from 'vitest';

import { interpolate, interpolateDocument, referencedVariables } from './compose-interpolation.js';
import { FleetInputError } from './fleet-errors.js';

describe('compose interpolation', () => {
  const env = { SET: 'value', EMPTY: '' };

  it('substitutes plain and braced references, and $$ as a dollar', () => {
    expect(interpolate('$SET and ${SET}', env)).toBe('value and value');
    expect(interpolate('${UNSET}|$UNSET', env)).toBe('|');
    expect(interpolate('$$SET costs $$5', env)).toBe('$SET costs $5');
  });

  it('applies defaults: with a colon when unset or empty, without one when unset only', () => {
    expect(interpolate('${UNSET:-d} ${EMPTY:-d} ${SET:-d}', env)).toBe('d d value');
    expect(interpolate('${UNSET-d} ${EMPTY-d} ${SET-d}', env)).toBe('d  value');
    // An empty default is empty, not the literal text (a tool that keeps it passes "${X:-}" on).
    expect(interpolate('${UNSET:-}', env)).toBe('');
    expect(interpolate('${UNSET:-redis:7.2}', env)).toBe('redis:7.2');
    expect(interpolate('${UNSET:-${SET}}', env)).toBe('value');
  });

  it('applies alternatives', () => {
    expect(interpolate('${SET:+x} ${EMPTY:+x} ${EMPTY+x} ${UNSET+x}', env)).toBe('x  x ');
  });

  it('refuses a required variable that is missing, naming it', () => {
    expect(interpolate('${SET:?needed}', env)).toBe('value');
    expect(() => interpolate('${EMPTY:?set a key}', env)).toThrow(FleetInputError);
    expect(() => interpolate('${UNSET?}', env)).toThrow(/^UNSET: required/);
    expect(interpolate('${EMPTY?}', env)).toBe('');
  });

  it('interpolates values of a document, not its keys, and lists the variables it names', () => {
    const doc = { $SET: ['${SET}', 3, null, { k: '${UNSET:-${INNER}}' }] };
    expect(interpolateDocument(doc, env)).toEqual({ $SET: ['value', 3, null, { k: '' }] });
    expect([...referencedVariables(doc)].sort()).toEqual(['INNER', 'SET', 'UNSET']);
    expect([...referencedVariables('$$NOT_ONE')]).toEqual([]);
  });
});
