// How each tool looks in menus and cards; keyed by ToolKey (a tool's id, or the key of a page that
// shares its tool) so a new tool or page cannot be forgotten.
import type { ToolKey } from '@quire/contracts';
import type { IconName } from '../ui/Icon';

export const toolLook: Record<ToolKey, { icon: IconName; color: string }> = {
  merge: { icon: 'merge', color: '#e5322d' },
  split: { icon: 'split', color: '#f0803c' },
  extract_page: { icon: 'extract', color: '#2f80ed' },
  delete_page: { icon: 'deletePages', color: '#d83a52' },
  rearrange: { icon: 'rearrange', color: '#8e5bd9' },
  rotate: { icon: 'rotate', color: '#1f9d6b' },
  cut: { icon: 'crop', color: '#5b6cd9' },
  redaction: { icon: 'redact', color: '#2b2f3a' },
  replacetext: { icon: 'replaceText', color: '#c2571a' },
  compress: { icon: 'compress', color: '#0f9aa8' },
  encrypt: { icon: 'lock', color: '#3b4a6b' },
  decode: { icon: 'unlock', color: '#d98a00' },
  convert: { icon: 'convert', color: '#e5322d' },
  word_to_pdf: { icon: 'docWord', color: '#2b579a' },
  excel_to_pdf: { icon: 'docSheet', color: '#217346' },
  ppt_to_pdf: { icon: 'docSlides', color: '#c43e1c' },
  rtf_to_pdf: { icon: 'docText', color: '#6b5b95' },
  txt_to_pdf: { icon: 'docText', color: '#5f6b7a' },
  pub_to_pdf: { icon: 'docPub', color: '#077568' },
  images_merge_pdf: { icon: 'image', color: '#e0a100' },
  png_to_pdf: { icon: 'image', color: '#8e44ad' },
  bmp_to_pdf: { icon: 'image', color: '#16a085' },
  gif_to_pdf: { icon: 'image', color: '#d35400' },
  tiff_to_pdf: { icon: 'image', color: '#34495e' },
  pdf_to_jpg: { icon: 'image', color: '#f2b705' },
  pdf_to_png: { icon: 'image', color: '#8e44ad' },
  pdf_to_bmp: { icon: 'image', color: '#16a085' },
  pdf_to_tiff: { icon: 'image', color: '#34495e' },
  extract_images: { icon: 'image', color: '#27ae60' },
};
