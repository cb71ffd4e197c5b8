import { describe, expect, it } from 'vitest';

import { nextPage, pageQuery, previousPage, shownPage } from './paging.model';

describe(shownPage.name, () => {
  const numbers = (from: number, n: number): number[] => Array.from({ length: n }, (_, i) => from + i);

  it('asks one more than a page and shows a next page only when the extra one came', () => {
    const first = { offset: 0, limit: 25 };
    expect(pageQuery(first)).toEqual({ offset: 0, limit: 26 });
    const full = shownPage(numbers(1, 26), first);
    expect(full).toMatchObject({ hasPrevious: false, hasNext: true, from: 1, to: 25 });
    expect(full.items).toEqual(numbers(1, 25));

    const second = nextPage(first);
    expect(second).toEqual({ offset: 25, limit: 25 });
    expect(shownPage(numbers(26, 5), second)).toMatchObject({
      hasPrevious: true,
      hasNext: false,
      from: 26,
      to: 30,
    });
    expect(shownPage(numbers(26, 25), second).hasNext).toBe(false);
  });

  it('goes back to the first page and no further', () => {
    expect(previousPage({ offset: 50, limit: 25 })).toEqual({ offset: 25, limit: 25 });
    expect(previousPage({ offset: 10, limit: 25 })).toEqual({ offset: 0, limit: 25 });
    expect(shownPage([], { offset: 0, limit: 25 })).toMatchObject({ from: 0, to: 0, hasNext: false });
  });
});
