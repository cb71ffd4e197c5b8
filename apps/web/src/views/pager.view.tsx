import { nextPage, type PageWindow, previousPage, type ShownPage } from '../model/paging.model';

/** Previous / next under a paged list, with the range shown. */
export function PagerView({
  page,
  window,
  onPage,
  testId,
}: {
  page: ShownPage<unknown>;
  window: PageWindow;
  onPage: (window: PageWindow) => void;
  testId: string;
}) {
  if (!page.hasPrevious && !page.hasNext) return null;
  return (
    <div class="pager" data-testid={testId} data-offset={window.offset}>
      <button
        type="button"
        data-testid="page-previous"
        disabled={!page.hasPrevious}
        onClick={() => onPage(previousPage(window))}
      >
        ‹ Previous
      </button>
      <span class="muted" data-testid="page-range">
        {page.from === 0 ? 'none' : `${page.from}–${page.to}`}
      </span>
      <button
        type="button"
        data-testid="page-next"
        disabled={!page.hasNext}
        onClick={() => onPage(nextPage(window))}
      >
        Next ›
      </button>
    </div>
  );
}
