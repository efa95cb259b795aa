// The PDF viewer: a column of page thumbnails, the pages one under another, each drawn only while
// near the view, zoom, page jump and search with the hits marked. An encrypted file asks for its
// password, which pdf.js checks and uses here: it never leaves the browser.
import type { PDFDocumentProxy } from 'pdfjs-dist';
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ButtonHTMLAttributes,
  type FormEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import type { ViewedFile } from '../api/viewerFiles';
import { useI18n, useT } from '../i18n/I18nProvider';
import { Logo } from '../layout/MarketingLayout';
import { useTextHits } from '../pdf/pageGeometry';
import { renderPage, usePdfDocument, type PasswordRequest } from '../pdf/pdfDocument';
import { PageThumb } from '../pdf/PageThumb';
import type { ShownRect, TextHit } from '../pdf/textHits';
import { Icon, type IconName } from '../ui/Icon';
import { useNearView } from '../ui/useNearView';
import { useObjectUrl } from './PreviewPage';
import { pageAfterKey, parsePageJump, parsePercent, percentOf, scaleOf, zoomIn, zoomOut, type Zoom } from './zoom';
import { formatShareDate } from '../share/shareForm';

/** A page's size in points (as shown, after /Rotate). */
interface PageSize {
  width: number;
  height: number;
}

/** The gap between pages and around them, CSS pixels. */
const PAGE_GAP = 16;
/** The phone layout hides the thumbnails until asked. */
const PHONE_WIDTH = 768;
const THUMB_SIZE = 120;
const NO_HITS: FoundHit[] = [];

export function PdfViewer({ file }: { file: ViewedFile }) {
  const t = useT();
  const pdf = usePdfDocument(file.bytes, undefined, true);
  const downloadUrl = useObjectUrl(file.bytes);
  const [showThumbs, setShowThumbs] = useState(() => window.innerWidth > PHONE_WIDTH);
  const expiry = <ShareExpiry expiresAt={file.expiresAt} />;
  const download = (
    <a
      className="button button-primary viewer-download"
      href={downloadUrl}
      download={file.name}
      data-testid="viewer-download"
      title={t('viewer.download')}
    >
      <Icon name="download" size={18} /> <span className="viewer-download-label">{t('viewer.download')}</span>
    </a>
  );

  return (
    <div className="viewer" data-testid="viewer">
      {pdf.doc ? (
        <DocumentView
          doc={pdf.doc}
          name={file.name}
          download={download}
          expiry={expiry}
          showThumbs={showThumbs}
          onToggleThumbs={() => setShowThumbs(!showThumbs)}
        />
      ) : (
        <>
          <header className="viewer-bar">
            <Logo />
            <span className="viewer-file-name" data-testid="viewer-file-name">
              {file.name}
            </span>
            {expiry}
            {download}
          </header>
          <main
            className="viewer-message"
            data-testid="viewer-state"
            data-state={pdf.failed ? 'failed' : pdf.passwordRequest ? 'password' : 'loading'}
          >
            {pdf.passwordRequest ? (
              <PasswordPrompt request={pdf.passwordRequest} />
            ) : pdf.failed ? (
              <>
                <Icon name="alert" size={40} />
                <h1>{t('viewer.failed')}</h1>
              </>
            ) : (
              <span className="spinner" aria-hidden="true" />
            )}
          </main>
        </>
      )}
    </div>
  );
}

/** Until when a share is open to its readers; nothing for a permanent share or another source. */
export function ShareExpiry({ expiresAt }: { expiresAt: number | null | undefined }) {
  const { t, locale } = useI18n();
  if (expiresAt == null) return null;
  const date = formatShareDate(expiresAt, locale);
  return (
    <span className="viewer-expiry" data-testid="viewer-expiry">
      {t('viewer.expiresOn', { date })}
    </span>
  );
}

function PasswordPrompt({ request }: { request: PasswordRequest }) {
  const t = useT();
  const [password, setPassword] = useState('');
  // The request answered by the last submit: pdf.js answers a wrong password with a new request.
  const [submittedTo, setSubmittedTo] = useState<PasswordRequest>();
  const checking = submittedTo === request;
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => inputRef.current?.focus(), []);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!password) return;
    setSubmittedTo(request);
    request.submit(password);
  };
  return (
    <form className="viewer-password" onSubmit={submit} data-testid="viewer-password">
      <Icon name="lock" size={40} />
      <h1>{t('viewer.passwordTitle')}</h1>
      <p>{t('viewer.passwordText')}</p>
      <label className="field">
        <span>{t('viewer.passwordLabel')}</span>
        <input
          type="password"
          autoComplete="off"
          ref={inputRef}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          data-testid="viewer-password-input"
        />
      </label>
      {request.incorrect && !checking && (
        <p className="field-error" role="alert" data-testid="viewer-password-error">
          {t('viewer.passwordIncorrect')}
        </p>
      )}
      <button type="submit" className="button button-primary" disabled={!password || checking} data-testid="viewer-password-submit">
        {t('viewer.passwordSubmit')}
      </button>
    </form>
  );
}

/** Each page's size, read in the background from the first pages on; unknown ones take the first's. */
function usePageSizes(doc: PDFDocumentProxy): PageSize[] | null {
  const [sizes, setSizes] = useState<PageSize[] | null>(null);
  useEffect(() => {
    let cancelled = false;
    void (async () => {
      const known: PageSize[] = [];
      for (let n = 1; n <= doc.numPages && !cancelled; n++) {
        try {
          const vp = (await doc.getPage(n)).getViewport({ scale: 1 });
          known.push({ width: vp.width, height: vp.height });
        } catch {
          // A page pdf.js cannot read keeps the first page's size and shows blank.
          known.push(known[0] ?? { width: 612, height: 792 });
        }
        if (cancelled) return;
        if (n === 1 || n % 50 === 0 || n === doc.numPages) {
          const first = known[0]!;
          setSizes(Array.from({ length: doc.numPages }, (_, i) => known[i] ?? first));
        }
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [doc]);
  return sizes;
}

/** The width of an element, kept up to date. */
function useWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

interface FoundHit {
  page: number;
  rects: ShownRect[];
}

interface DocumentViewProps {
  doc: PDFDocumentProxy;
  name: string;
  download: ReactNode;
  expiry: ReactNode;
  showThumbs: boolean;
  onToggleThumbs(): void;
}

function DocumentView({ doc, name, download, expiry, showThumbs, onToggleThumbs }: DocumentViewProps) {
  const t = useT();
  const pageCount = doc.numPages;
  const sizes = usePageSizes(doc);
  const scrollRef = useRef<HTMLElement>(null);
  const pageRefs = useRef<(HTMLDivElement | null)[]>([]);
  const searchRef = useRef<HTMLInputElement>(null);
  const viewWidth = useWidth(scrollRef);
  const [zoom, setZoom] = useState<Zoom>({ mode: 'auto' });
  const [page, setPage] = useState(1);
  const [pageText, setPageText] = useState('1');
  const [zoomText, setZoomText] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const [searched, setSearched] = useState('');
  const [hitIndex, setHitIndex] = useState(0);

  const widest = useMemo(() => Math.max(...(sizes ?? []).map((s) => s.width), 1), [sizes]);
  const scale = scaleOf(zoom, widest, viewWidth);

  const searches = useMemo(() => (searched.trim() ? [{ text: searched, regex: false, ignoreCase: true }] : []), [searched]);
  const hits = useTextHits(doc, pageCount, searches);
  const foundHits = useMemo<FoundHit[]>(
    () =>
      [...hits.byPage.entries()]
        .sort(([a], [b]) => a - b)
        .flatMap(([p, list]) => list.map((hit: TextHit) => ({ page: p, rects: hit.rects }))),
    [hits.byPage],
  );
  const hitsByPage = useMemo(() => {
    const byPage = new Map<number, FoundHit[]>();
    for (const hit of foundHits) byPage.set(hit.page, [...(byPage.get(hit.page) ?? []), hit]);
    return byPage;
  }, [foundHits]);
  const pageNumbers = useMemo(() => Array.from({ length: pageCount }, (_, i) => i + 1), [pageCount]);
  const currentHit = foundHits[Math.min(hitIndex, foundHits.length - 1)];

  const scrollToPage = useCallback((n: number, offset = 0) => {
    const el = pageRefs.current[n - 1];
    const box = scrollRef.current;
    if (el && box) box.scrollTo({ top: el.offsetTop - PAGE_GAP + offset });
  }, []);
  const goToPage = useCallback(
    (n: number) => {
      setPage(n);
      setPageText(String(n));
      scrollToPage(n);
    },
    [scrollToPage],
  );

  // On a phone the thumbnails cover the pages: choosing one closes them.
  const openFromThumb = (n: number) => {
    goToPage(n);
    if (window.innerWidth <= PHONE_WIDTH) onToggleThumbs();
  };

  // The page shown is the one under the upper third of the view.
  const onScroll = () => {
    const box = scrollRef.current;
    if (!box) return;
    const line = box.scrollTop + box.clientHeight / 3;
    let shown = 1;
    for (let i = 0; i < pageRefs.current.length; i++) {
      const el = pageRefs.current[i];
      if (el && el.offsetTop <= line) shown = i + 1;
      else break;
    }
    if (shown !== page) {
      setPage(shown);
      setPageText(String(shown));
    }
  };

  // A new scale keeps the page that was shown in view.
  const pageAtZoom = useRef(page);
  pageAtZoom.current = page;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on a change of scale only
  useLayoutEffect(() => scrollToPage(pageAtZoom.current), [scale, scrollToPage]);

  // A search's hit in view: its page, then its place on the page; once per hit chosen, not again
  // as the search goes on through later pages or the zoom changes.
  const hitView = useRef({ sizes, scale });
  hitView.current = { sizes, scale };
  const hitKey = currentHit ? `${searched}#${hitIndex}#${currentHit.page}` : '';
  // biome-ignore lint/correctness/useExhaustiveDependencies: the hit is read when its key changes
  useEffect(() => {
    if (!currentHit) return;
    const { sizes: known, scale: at } = hitView.current;
    const size = known?.[currentHit.page - 1];
    const rect = currentHit.rects[0];
    const top = size && rect ? (size.height - rect.y - rect.height) * at - 80 : 0;
    setPage(currentHit.page);
    setPageText(String(currentHit.page));
    scrollToPage(currentHit.page, Math.max(0, top));
  }, [hitKey, scrollToPage]);

  // Arrows and Page Up/Down move a page (outside fields); Ctrl+F or ⌘F goes to the search.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'f') {
        e.preventDefault();
        searchRef.current?.focus();
        searchRef.current?.select();
        return;
      }
      const target = e.target as HTMLElement | null;
      if (e.ctrlKey || e.metaKey || e.altKey || target?.closest('input, select, textarea')) return;
      const next = pageAfterKey(e.key, page, pageCount);
      if (next === null) return;
      e.preventDefault();
      goToPage(next);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [page, pageCount, goToPage]);

  const stepHit = (step: number) => {
    if (!foundHits.length) return;
    setHitIndex((i) => (i + step + foundHits.length) % foundHits.length);
  };
  const runSearch = (e: FormEvent, step = 1) => {
    e.preventDefault();
    if (query === searched) stepHit(step);
    else {
      setSearched(query);
      setHitIndex(0);
    }
  };

  const setScale = (next: number) => setZoom({ mode: 'scale', scale: next });
  const zoomChoice = zoom.mode === 'scale' ? String(zoom.scale) : zoom.mode;
  const hitLabel = !searches.length
    ? ''
    : foundHits.length
      ? t('viewer.hitCount', { current: Math.min(hitIndex, foundHits.length - 1) + 1, total: foundHits.length })
      : hits.done
        ? t('viewer.noHits')
        : '…';

  return (
    <>
      <header className="viewer-bar">
        <Logo />
        <span className="viewer-file-name" data-testid="viewer-file-name" title={name}>
          {name}
        </span>
        {expiry}
        {download}
      </header>
      <div className="viewer-toolbar" role="toolbar">
        <ViewerButton
          icon="organize"
          label={t('viewer.thumbnails')}
          onClick={onToggleThumbs}
          aria-pressed={showThumbs}
          data-testid="viewer-toggle-thumbs"
        />
        <div className="viewer-group">
          <ViewerButton icon="arrowLeft" label={t('viewer.previousPage')} disabled={page <= 1} onClick={() => goToPage(page - 1)} />
          <form
            className="viewer-page-jump"
            onSubmit={(e) => {
              e.preventDefault();
              const n = parsePageJump(pageText, pageCount);
              if (n) goToPage(n);
              else setPageText(String(page));
            }}
          >
            <input
              className="viewer-page-input"
              inputMode="numeric"
              aria-label={t('viewer.pageNumber')}
              value={pageText}
              onChange={(e) => setPageText(e.target.value)}
              onBlur={() => setPageText(String(page))}
              data-testid="viewer-page-input"
            />
            <span className="viewer-page-count" data-testid="viewer-page-count">
              {t('viewer.pageOf', { count: pageCount })}
            </span>
          </form>
          <ViewerButton icon="arrowRight" label={t('viewer.nextPage')} disabled={page >= pageCount} onClick={() => goToPage(page + 1)} />
        </div>
        <div className="viewer-group">
          <ViewerButton icon="minus" label={t('viewer.zoomOut')} onClick={() => setScale(zoomOut(scale))} data-testid="viewer-zoom-out" />
          <input
            className="viewer-zoom-input"
            aria-label={t('viewer.zoom')}
            value={zoomText ?? percentOf(scale)}
            onFocus={(e) => {
              setZoomText(percentOf(scale));
              e.target.select();
            }}
            onChange={(e) => setZoomText(e.target.value)}
            onBlur={() => setZoomText(null)}
            onKeyDown={(e) => {
              if (e.key !== 'Enter') return;
              const typed = parsePercent(e.currentTarget.value);
              if (typed) setScale(typed);
              setZoomText(null);
              e.currentTarget.blur();
            }}
            data-testid="viewer-zoom"
          />
          <ViewerButton icon="plus" label={t('viewer.zoomIn')} onClick={() => setScale(zoomIn(scale))} data-testid="viewer-zoom-in" />
          <select
            className="viewer-zoom-mode"
            aria-label={t('viewer.zoom')}
            value={['auto', 'fitWidth'].includes(zoomChoice) ? zoomChoice : ''}
            onChange={(e) => setZoom(e.target.value === 'fitWidth' ? { mode: 'fitWidth' } : { mode: 'auto' })}
            data-testid="viewer-zoom-mode"
          >
            {zoom.mode === 'scale' && <option value="">{percentOf(scale)}</option>}
            <option value="auto">{t('viewer.automatic')}</option>
            <option value="fitWidth">{t('viewer.fitWidth')}</option>
          </select>
        </div>
        <form className="viewer-search" onSubmit={(e) => runSearch(e)}>
          <Icon name="search" size={18} />
          <input
            ref={searchRef}
            type="search"
            placeholder={t('viewer.searchPlaceholder')}
            aria-label={t('viewer.search')}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && e.shiftKey) runSearch(e, -1);
            }}
            data-testid="viewer-search"
          />
          <span className="viewer-hit-count" data-testid="viewer-hit-count" aria-live="polite">
            {hitLabel}
          </span>
          <ViewerButton
            icon="chevronUp"
            label={t('viewer.previousHit')}
            iconSize={18}
            disabled={!foundHits.length}
            onClick={() => stepHit(-1)}
            data-testid="viewer-previous-hit"
          />
          <ViewerButton
            icon="chevronDown"
            label={t('viewer.nextHit')}
            iconSize={18}
            disabled={!foundHits.length}
            onClick={() => stepHit(1)}
            data-testid="viewer-next-hit"
          />
        </form>
      </div>
      <div className="viewer-body">
        {showThumbs && (
          <nav className="viewer-thumbs" aria-label={t('viewer.thumbnails')} data-testid="viewer-thumbs">
            {pageNumbers.map((n) => (
              <ThumbButton key={n} doc={doc} pageNumber={n} current={page === n} onOpen={openFromThumb} />
            ))}
          </nav>
        )}
        <main className="viewer-pages" ref={scrollRef} onScroll={onScroll} tabIndex={-1} data-testid="viewer-pages">
          {sizes &&
            pageNumbers.map((n) => (
              <ViewerPage
                key={n}
                doc={doc}
                pageNumber={n}
                size={sizes[n - 1]!}
                scale={scale}
                hits={hitsByPage.get(n) ?? NO_HITS}
                currentHit={currentHit?.page === n ? currentHit : undefined}
                boxRef={(el) => {
                  pageRefs.current[n - 1] = el;
                }}
              />
            ))}
        </main>
      </div>
    </>
  );
}

/** A toolbar button shown as its icon, named by its label (read out, and shown on hover). */
function ViewerButton({
  icon,
  iconSize,
  label,
  ...rest
}: { icon: IconName; iconSize?: number; label: string } & Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'className'> & {
    'data-testid'?: string;
  }) {
  return (
    <button type="button" className="icon-button" aria-label={label} title={label} {...rest}>
      <Icon name={icon} size={iconSize} />
    </button>
  );
}

function ThumbButton({
  doc,
  pageNumber,
  current,
  onOpen,
}: {
  doc: PDFDocumentProxy;
  pageNumber: number;
  current: boolean;
  onOpen(n: number): void;
}) {
  const t = useT();
  const ref = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (current) ref.current?.scrollIntoView({ block: 'nearest' });
  }, [current]);
  return (
    <button
      ref={ref}
      type="button"
      className={`viewer-thumb ${current ? 'current' : ''}`}
      aria-current={current ? 'page' : undefined}
      aria-label={t('viewer.page', { page: pageNumber })}
      onClick={() => onOpen(pageNumber)}
      data-testid="viewer-thumb"
    >
      <PageThumb doc={doc} pageNumber={pageNumber} size={THUMB_SIZE} />
      <span>{pageNumber}</span>
    </button>
  );
}

interface ViewerPageProps {
  doc: PDFDocumentProxy;
  pageNumber: number;
  size: PageSize;
  scale: number;
  hits: FoundHit[];
  currentHit: FoundHit | undefined;
  boxRef(el: HTMLDivElement | null): void;
}

/** One page at the zoom's size; drawn while near the view, let go of when far from it. */
function ViewerPage({ doc, pageNumber, size, scale, hits, currentHit, boxRef }: ViewerPageProps) {
  const ref = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const near = useNearView(ref, { stay: false, margin: '100% 0px' });
  const [drawnAt, setDrawnAt] = useState<number | null>(null);
  const width = Math.round(size.width * scale);
  const height = Math.round(size.height * scale);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!near || !canvas) return;
    let current = true;
    const render = renderPage(doc, pageNumber, canvas, () => scale);
    render.done.then(
      () => current && setDrawnAt(scale),
      () => undefined,
    );
    return () => {
      current = false;
      render.cancel();
    };
  }, [doc, pageNumber, scale, near]);

  // Far from the view the canvas is emptied: a long document at a high zoom would hold gigabytes.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (near || !canvas) return;
    canvas.width = 0;
    canvas.height = 0;
    setDrawnAt(null);
  }, [near]);

  return (
    <div
      ref={(el) => {
        ref.current = el;
        boxRef(el);
      }}
      className="viewer-page"
      style={{ width, height }}
      data-testid="viewer-page"
      data-page={pageNumber}
      data-drawn={drawnAt !== null && near ? 'yes' : 'no'}
    >
      <canvas ref={canvasRef} style={{ width, height }} />
      {hits
        .flatMap((hit, h) => hit.rects.map((rect, r) => ({ key: `${h}.${r}`, rect, current: hit === currentHit })))
        .map(({ key, rect, current }) => (
          <span
            key={key}
            className={`viewer-hit ${current ? 'current' : ''}`}
            data-testid={current ? 'viewer-current-hit' : 'viewer-hit'}
            style={{
              left: rect.x * scale,
              top: (size.height - rect.y - rect.height) * scale,
              width: rect.width * scale,
              height: rect.height * scale,
            }}
          />
        ))}
    </div>
  );
}
