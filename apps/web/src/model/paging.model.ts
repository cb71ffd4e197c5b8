/** A page of a list the API pages with `offset` and `limit`. */
export interface PageWindow {
  offset: number;
  limit: number;
}

/** A page as shown: its items, whether there are pages before and after, and its 1-based range. */
export interface ShownPage<T> {
  items: T[];
  hasPrevious: boolean;
  hasNext: boolean;
  /** Position of the first item shown (1-based); 0 when the page is empty. */
  from: number;
  /** Position of the last item shown. */
  to: number;
}

/**
 * The query for a page: one item more than the page holds, so that the answer says whether a
 * next page exists (the API's lists carry no total).
 */
export function pageQuery(page: PageWindow): PageWindow {
  return { offset: page.offset, limit: page.limit + 1 };
}

/** The page shown from the answer to {@link pageQuery}. */
export function shownPage<T>(answer: readonly T[], page: PageWindow): ShownPage<T> {
  const items = answer.slice(0, page.limit);
  return {
    items,
    hasPrevious: page.offset > 0,
    hasNext: answer.length > page.limit,
    from: items.length === 0 ? 0 : page.offset + 1,
    to: page.offset + items.length,
  };
}

/** The page after `page`. */
export function nextPage(page: PageWindow): PageWindow {
  return { offset: page.offset + page.limit, limit: page.limit };
}

/** The page before `page` (the first page stays the first). */
export function previousPage(page: PageWindow): PageWindow {
  return { offset: Math.max(0, page.offset - page.limit), limit: page.limit };
}
