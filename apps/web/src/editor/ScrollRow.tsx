// A row of tools wider than the window scrolls sideways, with a button at each end that has more
// to show (a phone's toolbar holds a third of the annotate tools): every tool stays reachable by
// pointer, by touch (swipe) and by Tab (a focused tool scrolls into view).
import { type ReactNode, useCallback, useLayoutEffect, useRef, useState } from 'react';
import { useT } from '../i18n/I18nProvider';
import { Icon } from '../ui/Icon';

/** One press scrolls this share of the row's visible width. */
const SCROLL_SHARE = 0.7;

export function ScrollRow({ className, testId, children }: { className: string; testId: string; children: ReactNode }) {
  const t = useT();
  const row = useRef<HTMLDivElement>(null);
  const [moreBefore, setMoreBefore] = useState(false);
  const [moreAfter, setMoreAfter] = useState(false);
  const measure = useCallback(() => {
    const r = row.current;
    if (!r) return;
    setMoreBefore(r.scrollLeft > 1);
    setMoreAfter(r.scrollLeft + r.clientWidth < r.scrollWidth - 1);
  }, []);
  // The tools change with the mode and the selection: measured after every render (same values
  // re-render nothing), and whenever the window changes the row's width.
  useLayoutEffect(measure);
  useLayoutEffect(() => {
    const observer = new ResizeObserver(measure);
    observer.observe(row.current!);
    return () => observer.disconnect();
  }, [measure]);
  const scroll = (direction: 1 | -1) =>
    row.current?.scrollBy({ left: direction * row.current.clientWidth * SCROLL_SHARE, behavior: 'smooth' });
  const end = (direction: 1 | -1, label: string) => (
    <button
      type="button"
      className={`scroll-row-button ${direction < 0 ? 'before' : 'after'}`}
      aria-label={label}
      data-testid={direction < 0 ? 'tools-back' : 'tools-more'}
      onClick={() => scroll(direction)}
    >
      <Icon name="chevronRight" size={16} />
    </button>
  );
  return (
    <div className={`scroll-row ${moreBefore ? 'more-before' : ''} ${moreAfter ? 'more-after' : ''}`} data-testid={testId}>
      {moreBefore && end(-1, t('editor.moreToolsBefore'))}
      <div ref={row} className={className} onScroll={measure}>
        {children}
      </div>
      {moreAfter && end(1, t('editor.moreToolsAfter'))}
    </div>
  );
}
