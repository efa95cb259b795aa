// /template/{cat}/{title}/{id}/{catId}: one template's pages drawn, its description, Download, and
// "Use this template", which opens it in the editor. Both count a use.
import type { TemplateSummary } from '@quire/contracts';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { ApiError, isAbort } from '../api/client';
import { addTemplateUse, fetchTemplate, templateFileUrl } from '../api/templates';
import { useI18n } from '../i18n/I18nProvider';
import { PageThumb } from '../pdf/PageThumb';
import { useShownSize } from '../pdf/pageGeometry';
import { usePdfDocument } from '../pdf/pdfDocument';
import { Icon } from '../ui/Icon';
import { LocaleLink } from '../ui/LocaleLink';
import { useDocumentTitle } from '../ui/useDocumentTitle';
import { categoryName, editorPathFor } from './templateModel';
import './templates.css';

/** The drawn pages fill the column, up to this width, on a phone the screen less its margins. */
const PAGE_WIDTH_MAX = 640;
const PAGE_MARGINS = 40;
/** Until pdf.js knows a page's size, its place is held as a portrait A4 page's. */
const A4 = { width: 595, height: 842 };

function usePageWidth(): number {
  const [width, setWidth] = useState(() => Math.min(PAGE_WIDTH_MAX, window.innerWidth - PAGE_MARGINS));
  useEffect(() => {
    const measure = () => setWidth(Math.min(PAGE_WIDTH_MAX, window.innerWidth - PAGE_MARGINS));
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, []);
  return width;
}

/**
 * One page drawn `width` wide. PageThumb draws the longer side at its size into a square box; the
 * frame has the page's own shape, so the square's empty part is cut off.
 */
function TemplatePage({ doc, pageNumber, width }: { doc: PDFDocumentProxy | null; pageNumber: number; width: number }) {
  const page = useShownSize(doc, pageNumber) ?? A4;
  const height = Math.round((width * page.height) / page.width);
  return (
    <div className="template-page" style={{ width, height }}>
      <PageThumb doc={doc} pageNumber={pageNumber} size={Math.max(width, height)} />
    </div>
  );
}

export function TemplatePreviewPage() {
  const { t, locale } = useI18n();
  const { id = '' } = useParams();
  const [template, setTemplate] = useState<TemplateSummary>();
  const [missing, setMissing] = useState(false);
  const { doc, failed } = usePdfDocument(template ? templateFileUrl(template.id) : undefined);
  const pageWidth = usePageWidth();
  useDocumentTitle(template?.title ?? t('templates.title'));

  useEffect(() => {
    const abort = new AbortController();
    fetchTemplate(id, locale, abort.signal).then(setTemplate, (e) => {
      if (!isAbort(e)) setMissing(e instanceof ApiError);
    });
    return () => abort.abort();
  }, [id, locale]);

  const countUse = () => {
    if (!template) return;
    void addTemplateUse(template.id).then(
      (uses) => setTemplate({ ...template, uses }),
      () => undefined,
    );
  };

  if (missing) {
    return (
      <div className="templates-page template-missing" data-testid="template-missing">
        <h1>{t('templates.missing')}</h1>
        <LocaleLink to="/template" className="button button-primary">
          {t('templates.backToGallery')}
        </LocaleLink>
      </div>
    );
  }
  if (!template) return <div className="templates-page" aria-busy="true" />;

  return (
    <div className="templates-page template-preview">
      <LocaleLink to={`/template?cat=${encodeURIComponent(template.cat_id)}`} className="template-back" data-testid="template-back">
        <Icon name="arrowLeft" size={16} /> {categoryName(template.cat_id, t)}
      </LocaleLink>
      <div className="template-preview-body">
        <section className="template-pages" aria-label={t('templates.pagesLabel')}>
          {failed && <p className="templates-empty">{t('templates.loadFailed')}</p>}
          {Array.from({ length: template.pages }, (_, i) => i + 1).map((pageNumber) => (
            <TemplatePage key={pageNumber} doc={doc} pageNumber={pageNumber} width={pageWidth} />
          ))}
        </section>
        <aside className="template-info card">
          <p className="template-info-category">{categoryName(template.cat_id, t)}</p>
          <h1 data-testid="template-title">{template.title}</h1>
          <p className="template-info-description">{template.description}</p>
          <ul className="template-facts">
            <li>
              <Icon name="file" size={16} /> {t('templates.pageCount', { count: template.pages })}
            </li>
            <li data-testid="template-uses">
              <Icon name="check" size={16} /> {t('templates.uses', { count: template.uses })}
            </li>
            {template.form && (
              <li>
                <Icon name="edit" size={16} /> {t('templates.fillable')}
              </li>
            )}
          </ul>
          {template.tags.length > 0 && (
            <ul className="template-tags">
              {template.tags.map((tag) => (
                <li key={tag}>{tag}</li>
              ))}
            </ul>
          )}
          <div className="template-actions">
            <LocaleLink to={editorPathFor(template.id)} className="button button-primary" data-testid="template-use" onClick={countUse}>
              <Icon name="edit" size={18} /> {t('templates.use')}
            </LocaleLink>
            <a
              href={templateFileUrl(template.id)}
              download
              className="button button-outline"
              data-testid="template-download"
              onClick={countUse}
            >
              <Icon name="download" size={18} /> {t('templates.download')}
            </a>
          </div>
        </aside>
      </div>
    </div>
  );
}
