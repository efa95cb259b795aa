import { describe, expect, it } from 'vitest';
import { categoryName, editorPathFor, galleryParams, galleryStateOf, templatePreviewPath } from './templateModel';

describe('the gallery state in the query', () => {
  it('reads what is set and falls back on the defaults for the rest or for nonsense', () => {
    expect(galleryStateOf(new URLSearchParams('cat=forms&q=leave&sort=name&page=3'))).toEqual({
      catId: 'forms',
      search: 'leave',
      sort: 'name',
      page: 3,
    });
    expect(galleryStateOf(new URLSearchParams('sort=oldest&page=-2'))).toEqual({ catId: '', search: '', sort: 'popular', page: 1 });
    expect(galleryStateOf(new URLSearchParams('page=1.5')).page).toBe(1);
  });

  it('writes only what differs from the defaults, and reads back what it wrote', () => {
    expect(galleryParams({ catId: '', search: '', sort: 'popular', page: 1 }).toString()).toBe('');
    const state = { catId: 'invoices', search: 'vat tax', sort: 'newest' as const, page: 2 };
    expect(galleryStateOf(galleryParams(state))).toEqual(state);
  });
});

describe('paths', () => {
  it("builds the product's preview path /template/{cat}/{title}/{id}/{catId}", () => {
    expect(templatePreviewPath({ id: 'gift-certificate', cat_id: 'certificates', title: 'Gift certificate' })).toBe(
      '/template/certificates/gift-certificate/gift-certificate/certificates',
    );
    expect(templatePreviewPath({ id: 'custom-menu', cat_id: 'custom', title: 'Menü & Karte' })).toBe(
      '/template/custom/menu-karte/custom-menu/custom',
    );
  });

  it('opens a template in the editor by its id', () => {
    expect(editorPathFor('a b')).toBe('/app/pdf-editor?template_id=a%20b');
  });

  it("names our categories by their key and an operator's by its id", () => {
    const t = (key: string) => `[${key}]`;
    expect(categoryName('forms', t)).toBe('[templates.category.forms]');
    expect(categoryName('school-forms', t)).toBe('School forms');
  });
});
