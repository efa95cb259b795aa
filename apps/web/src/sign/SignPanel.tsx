// The Sign PDF page's work area: page thumbnails, the page with its marks, and the side panel
// that makes signatures, places them, names and dates, and the optional digital signature.
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useEffect, useRef, useState } from 'react';
import { useSession } from '../account/session';
import { querySignDate } from '../api/sign';
import { useI18n, useT } from '../i18n/I18nProvider';
import { useShownSize } from '../pdf/pageGeometry';
import { MAX_THUMBNAILS, PageThumb } from '../pdf/PageThumb';
import { fileFields, RangeField, readRanges, useFilePdf } from '../tool/panels/common';
import type { OptionPanelProps, ToolRequest } from '../tool/panels/types';
import { Icon } from '../ui/Icon';
import { useToast } from '../ui/Toast';
import { DigitalSection, type DigitalState } from './DigitalSection';
import {
  centredAt,
  freeSpot,
  initialSize,
  markLabel,
  newMarkId,
  repeatOnPages,
  signRequest,
  type Mark,
  type PlaceableSignature,
} from './marks';
import { SignatureChoice } from './SignatureChoice';
import { SIGNATURE_DRAG_TYPE, SignSheet, type VisibleArea } from './SignSheet';
import { useSignatureMaker } from './useSignatureMaker';
import './sign.css';

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The size of each page as shown, read when marks are repeated onto them. */
async function shownSizes(doc: PDFDocumentProxy, pages: readonly number[]) {
  const sizes = new Map<number, { width: number; height: number }>();
  for (const n of pages) {
    const vp = (await doc.getPage(n)).getViewport({ scale: 1 });
    sizes.set(n, { width: vp.width, height: vp.height });
  }
  return sizes;
}

export function SignPanel({ files, layout }: OptionPanelProps) {
  const t = useT();
  const { locale } = useI18n();
  const toast = useToast();
  const { user } = useSession();
  const file = files[0];
  const pageCount = file?.pageCount ?? 0;
  const pdf = useFilePdf(file);
  const [page, setPage] = useState(1);
  const shown = useShownSize(pdf.doc, page);
  const [marks, setMarks] = useState<Mark[]>([]);
  const [selectedId, setSelectedId] = useState<string>();
  const [oneOffs, setOneOffs] = useState<PlaceableSignature[]>([]);
  const [name, setName] = useState('');
  const [repeatPages, setRepeatPages] = useState('');
  const [digital, setDigital] = useState<DigitalState>({ on: false, certificate: 'uploaded', password: '', timestamp: false });
  const visibleArea: VisibleArea = useRef(null);
  const selected = marks.find((m) => m.id === selectedId);
  const maker = useSignatureMaker((signature, kept) => {
    if (!kept) setOneOffs((list) => [signature, ...list]);
    place({ kind: 'image', signature });
  });
  const signatures = [...oneOffs, ...maker.saved];

  // A selected mark on another page than the one shown is no longer selected.
  useEffect(() => {
    if (selected && selected.page !== page) setSelectedId(undefined);
  }, [page, selected]);

  const place = (
    content: { kind: 'image'; signature: PlaceableSignature } | { kind: 'text' | 'date'; text: string },
    at?: [number, number],
  ) => {
    if (!shown) return;
    const size = initialSize(content.kind === 'image' ? { kind: 'image', image: content.signature.image } : content);
    // Placed by a click, a new mark goes where it is seen and covers no other.
    const taken = marks.filter((m) => m.page === page).map((m) => m.rect);
    const rect = at ? centredAt(at[0], at[1], size, shown) : freeSpot(size, taken, shown, visibleArea.current?.() ?? null);
    const mark = { ...content, id: newMarkId(), page, rect } as Mark;
    setMarks((list) => [...list, mark]);
    setSelectedId(mark.id);
  };
  const placeSignature = (key: string, at?: [number, number]) => {
    const signature = signatures.find((s) => s.key === key);
    if (signature) place({ kind: 'image', signature }, at);
  };
  const placeDate = async () => {
    try {
      place({ kind: 'date', text: await querySignDate(locale) });
    } catch (e) {
      toast(errorText(e));
    }
  };

  const forget = async (signature: PlaceableSignature) => {
    if (!signature.savedId) {
      setOneOffs((list) => list.filter((s) => s.key !== signature.key));
      setMarks((list) => list.filter((m) => m.kind !== 'image' || m.signature.key !== signature.key));
      return;
    }
    try {
      await maker.remove(signature.savedId);
      // Marks already placed keep the picture, sent with the task instead of the deleted id.
      const { savedId: _, ...oneOff } = signature;
      setMarks((list) => list.map((m) => (m.kind === 'image' && m.signature.key === signature.key ? { ...m, signature: oneOff } : m)));
    } catch (e) {
      toast(errorText(e));
    }
  };

  const repeat = async (pages: number[]) => {
    if (!selected || !pdf.doc) return;
    const sizes = await shownSizes(pdf.doc, pages);
    const copies = repeatOnPages(selected, pages, marks, (n) => sizes.get(n)!);
    setMarks((list) => [...list, ...copies]);
    toast(t('sign.repeated', { count: copies.length }));
  };
  const allPages = Array.from({ length: pageCount }, (_, i) => i + 1);
  const range = readRanges(repeatPages, pageCount);

  const updateText = (text: string) => {
    if (!selected || selected.kind === 'image') return;
    // The box keeps its height (the text's size) and grows or shrinks with the text.
    const width =
      (initialSize({ kind: 'text', text }).width * selected.rect.height) / initialSize({ kind: 'text', text: selected.text }).height;
    setMarks((list) => list.map((m) => (m.id === selected.id ? { ...m, text, rect: { ...m.rect, width } } : m)));
  };

  const digitalChoice = !digital.on
    ? undefined
    : digital.certificate === 'operator'
      ? ({ certificate: 'operator', timestamp: digital.timestamp } as const)
      : digital.p12 &&
        ({ certificate: 'uploaded', p12: digital.p12.base64, password: digital.password, timestamp: digital.timestamp } as const);
  const hasSignatureMark = marks.some((m) => m.kind === 'image');
  let request: ToolRequest = { ok: false };
  if (file && marks.length && (!digital.on || (digitalChoice && hasSignatureMark)))
    request = {
      ok: true,
      body: signRequest(
        fileFields(file),
        marks.filter((m) => m.kind === 'image' || m.text.trim()),
        digitalChoice,
      ),
    };

  const options = (
    <>
      <section className="sign-section">
        <span className="field-label">{t('sign.signatures')}</span>
        <button type="button" className="button button-outline" data-testid="create-signature" onClick={maker.create}>
          <Icon name="edit" size={18} /> {t('sign.create')}
        </button>
        {signatures.length > 0 && (
          <ul className="signature-list">
            {signatures.map((s) => (
              <li key={s.key} data-testid={s.savedId ? 'saved-signature' : 'one-off-signature'}>
                <SignatureChoice
                  image={s.image}
                  draggable
                  title={t('sign.placeHint')}
                  data-testid="place-signature"
                  onDragStart={(e) => e.dataTransfer.setData(SIGNATURE_DRAG_TYPE, s.key)}
                  onClick={() => placeSignature(s.key)}
                />
                <button
                  type="button"
                  className="icon-button"
                  aria-label={s.savedId ? t('sign.deleteSaved') : t('sign.remove')}
                  data-testid="forget-signature"
                  onClick={() => void forget(s)}
                >
                  <Icon name="trash" size={16} />
                </button>
              </li>
            ))}
          </ul>
        )}
        <p className="panel-note">{signatures.length ? t('sign.placeHint') : user ? t('sign.noneSaved') : t('sign.visitorNote')}</p>
      </section>
      <section className="sign-section">
        <span className="field-label">{t('sign.fields')}</span>
        <div className="sign-field-row">
          <label className="field">
            <span className="field-label">{t('sign.yourName')}</span>
            <input type="text" value={name} maxLength={200} data-testid="name-text" onChange={(e) => setName(e.target.value)} />
          </label>
          <button
            type="button"
            className="button button-ghost button-small"
            disabled={!name.trim()}
            data-testid="add-name"
            onClick={() => place({ kind: 'text', text: name.trim() })}
          >
            {t('sign.addName')}
          </button>
        </div>
        <button type="button" className="button button-ghost button-small" data-testid="add-date" onClick={() => void placeDate()}>
          <Icon name="clock" size={16} /> {t('sign.addDate')}
        </button>
      </section>
      {selected && (
        <section className="sign-section sign-selected" data-testid="selected-mark">
          <span className="field-label">{markLabel(t, selected.kind)}</span>
          {selected.kind !== 'image' && (
            <label className="field">
              <span className="field-label">{t('sign.markText')}</span>
              <input
                type="text"
                value={selected.text}
                maxLength={500}
                data-testid="mark-text"
                onChange={(e) => updateText(e.target.value)}
              />
            </label>
          )}
          {pageCount > 1 && (
            <>
              <button
                type="button"
                className="button button-ghost button-small"
                data-testid="repeat-all"
                onClick={() => void repeat(allPages)}
              >
                {t('sign.repeatAll')}
              </button>
              <div className="sign-field-row">
                <RangeField
                  label={t('sign.repeatPages')}
                  value={repeatPages}
                  onChange={setRepeatPages}
                  error={range.error}
                  placeholder="2, 4-6"
                />
                <button
                  type="button"
                  className="button button-ghost button-small"
                  disabled={!range.pages.length}
                  data-testid="repeat-pages"
                  onClick={() => void repeat(range.pages)}
                >
                  {t('sign.repeat')}
                </button>
              </div>
            </>
          )}
          <button
            type="button"
            className="button button-ghost button-small sign-delete"
            data-testid="delete-mark"
            onClick={() => setMarks(marks.filter((m) => m.id !== selected.id))}
          >
            <Icon name="trash" size={16} /> {t('sign.deleteMark')}
          </button>
          <p className="panel-note">{t('sign.keysHint')}</p>
        </section>
      )}
      <DigitalSection state={digital} onChange={setDigital} needsSignature={digital.on && !hasSignatureMark} />
      {marks.length > 0 && (
        <p className="panel-note" data-testid="mark-count">
          {t('sign.markCount', { count: marks.length })}
        </p>
      )}
    </>
  );

  const pages = file && (
    <div className="sign-work">
      <ol className="sign-thumbs" aria-label={t('sign.pages')}>
        {allPages.slice(0, MAX_THUMBNAILS).map((n) => {
          const count = marks.filter((m) => m.page === n).length;
          return (
            <li key={n}>
              <button
                type="button"
                className={`sign-thumb ${n === page ? 'active' : ''}`}
                aria-current={n === page}
                data-testid="sign-thumb"
                onClick={() => setPage(n)}
              >
                <PageThumb doc={pdf.doc} pageNumber={n} size={88} />
                <span className="sign-thumb-number">{n}</span>
                {count > 0 && <span className="sign-thumb-count">{count}</span>}
              </button>
            </li>
          );
        })}
      </ol>
      <SignSheet
        doc={pdf.doc}
        pageCount={pageCount}
        page={page}
        onPage={setPage}
        marks={marks.filter((m) => m.page === page)}
        selectedId={selectedId}
        onSelect={setSelectedId}
        onMove={(id, rect) => setMarks((list) => list.map((m) => (m.id === id ? { ...m, rect } : m)))}
        onRemove={(id) => {
          setMarks((list) => list.filter((m) => m.id !== id));
          setSelectedId(undefined);
        }}
        onDropSignature={(key, x, y) => placeSignature(key, [x, y])}
        visibleArea={visibleArea}
      />
      {maker.dialog}
    </div>
  );

  return layout({ pages, options, request });
}
