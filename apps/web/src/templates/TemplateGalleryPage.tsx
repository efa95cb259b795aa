// /template: the gallery. Categories (a sidebar, tabs on a phone), search, sort and pages of
// thumbnails with title and uses; its state lives in the URL's query.
import type { TemplateIndex, TemplateList, TemplateSort } from '@quire/contracts';
import { templateSorts } from '@quire/contracts';
import { useEffect, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { isAbort } from '../api/client';
import { fetchTemplateIndex, fetchTemplateList, templateThumbnailUrl } from '../api/templates';
import { useI18n } from '../i18n/I18nProvider';
import { Icon } from '../ui/Icon';
import { LocaleLink } from '../ui/LocaleLink';
import { useDocumentTitle } from '../ui/useDocumentTitle';
import {
  categoryName,
  GALLERY_PAGE_SIZE,
  sortKeys,
  galleryParams,
  galleryStateOf,
  templatePreviewPath,
  type GalleryState,
} from './templateModel';
import './templates.css';

export function TemplateGalleryPage() {
  const { t, locale } = useI18n();
  useDocumentTitle(t('landing.template.metaTitle'));
  const [params, setParams] = useSearchParams();
  const state = galleryStateOf(params);
  const [index, setIndex] = useState<TemplateIndex>();
  const [list, setList] = useState<TemplateList>();
  const [failed, setFailed] = useState(false);
  const [typed, setTyped] = useState(state.search);

  const go = (change: Partial<GalleryState>) => setParams(galleryParams({ ...state, page: 1, ...change }));

  useEffect(() => {
    const abort = new AbortController();
    fetchTemplateIndex(locale, abort.signal).then(setIndex, (e) => isAbort(e) || setFailed(true));
    return () => abort.abort();
  }, [locale]);

  const { catId, search, sort, page } = state;
  useEffect(() => {
    const abort = new AbortController();
    fetchTemplateList(
      { lang: locale, cat_id: catId || undefined, search: search || undefined, sort, page, page_size: GALLERY_PAGE_SIZE },
      abort.signal,
    ).then(
      (answer) => {
        setList(answer);
        setFailed(false);
      },
      (e) => isAbort(e) || setFailed(true),
    );
    return () => abort.abort();
  }, [locale, catId, search, sort, page]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    go({ search: typed.trim() });
  };
  const total = index?.categories.reduce((sum, c) => sum + c.count, 0);
  const pages = list ? Math.max(1, Math.ceil(list.total / list.page_size)) : 1;

  return (
    <div className="templates-page">
      <header className="templates-head">
        <div>
          <h1>{t('templates.title')}</h1>
          <p>{t('templates.subtitle')}</p>
        </div>
        <search className="templates-search">
          <form onSubmit={submit}>
            <Icon name="search" size={18} />
            <input
              type="search"
              className="templates-input"
              value={typed}
              placeholder={t('templates.searchPlaceholder')}
              aria-label={t('templates.searchPlaceholder')}
              data-testid="template-search"
              onChange={(e) => setTyped(e.target.value)}
            />
          </form>
        </search>
      </header>
      <div className="templates-body">
        <nav className="templates-categories" aria-label={t('templates.categories')} data-testid="template-categories">
          <button type="button" className={catId === '' ? 'active' : ''} aria-pressed={catId === ''} onClick={() => go({ catId: '' })}>
            <span>{t('templates.category.all')}</span>
            {total !== undefined && <span className="templates-count">{total}</span>}
          </button>
          {index?.categories.map((c) => (
            <button
              type="button"
              key={c.cat_id}
              className={catId === c.cat_id ? 'active' : ''}
              aria-pressed={catId === c.cat_id}
              data-testid={`template-category-${c.cat_id}`}
              onClick={() => go({ catId: c.cat_id })}
            >
              <span>{categoryName(c.cat_id, t)}</span>
              <span className="templates-count">{c.count}</span>
            </button>
          ))}
        </nav>
        <section className="templates-results" aria-busy={!list}>
          <div className="templates-toolbar">
            <span className="templates-found" data-testid="template-total">
              {list && (search ? t('templates.found', { count: list.total, search }) : t('templates.total', { count: list.total }))}
            </span>
            <label className="templates-sort">
              <span>{t('templates.sortBy')}</span>
              <select
                className="templates-input"
                value={sort}
                data-testid="template-sort"
                onChange={(e) => go({ sort: e.target.value as TemplateSort })}
              >
                {templateSorts.map((s) => (
                  <option key={s} value={s}>
                    {t(sortKeys[s])}
                  </option>
                ))}
              </select>
            </label>
          </div>
          {failed && <p className="templates-empty">{t('templates.loadFailed')}</p>}
          {list && list.total === 0 && (
            <div className="templates-empty" data-testid="template-none">
              <p>{t('templates.none')}</p>
              {search && (
                <button
                  type="button"
                  className="button button-outline"
                  onClick={() => {
                    setTyped('');
                    go({ search: '' });
                  }}
                >
                  {t('templates.clearSearch')}
                </button>
              )}
            </div>
          )}
          <ul className="templates-grid">
            {list?.templates.map((template) => (
              <li key={template.id}>
                <LocaleLink
                  to={templatePreviewPath(template)}
                  className="template-card"
                  data-testid="template-card"
                  data-template-id={template.id}
                >
                  <span className="template-thumb">
                    <img src={templateThumbnailUrl(template.id)} alt="" loading="lazy" />
                  </span>
                  <span className="template-card-title">{template.title}</span>
                  <span className="template-card-meta">
                    <span>{categoryName(template.cat_id, t)}</span>
                    <span data-testid="template-card-uses">{t('templates.uses', { count: template.uses })}</span>
                  </span>
                </LocaleLink>
              </li>
            ))}
          </ul>
          {pages > 1 && (
            <nav className="templates-pager" aria-label={t('templates.pages')}>
              <button type="button" className="button button-outline" disabled={page <= 1} onClick={() => go({ page: page - 1 })}>
                <Icon name="arrowLeft" size={16} /> {t('templates.previous')}
              </button>
              <span data-testid="template-page">{t('templates.pageOf', { page, pages })}</span>
              <button
                type="button"
                className="button button-outline"
                disabled={page >= pages}
                data-testid="template-next"
                onClick={() => go({ page: page + 1 })}
              >
                {t('templates.next')} <Icon name="arrowRight" size={16} />
              </button>
            </nav>
          )}
        </section>
      </div>
    </div>
  );
}
