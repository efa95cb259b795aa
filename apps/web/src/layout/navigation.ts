// The app sidebar: the product's entries in its order, each a tool of the registry or a page of
// its own under /app.
import { toolDefinitions, type ToolDefinition } from '@quire/contracts';
import type { MessageKey } from '../i18n/translate';
import { toolPageOf, type ToolCategory, type ToolLook } from '../tool/toolPages';
import type { IconName } from '../ui/Icon';

/** A page under /app listed among the tools that runs no task of the registry (sharing a document). */
export interface AppPage {
  slug: string;
  title: MessageKey;
  description: MessageKey;
  look: ToolLook;
  /** Query the page opens with (the editor's mode). */
  query?: string;
}

/** Where a page under /app is linked. */
export const pagePath = (page: AppPage) => `/app/${page.slug}${page.query ?? ''}`;

export const appPages = {
  'ai-read': {
    slug: 'ai-read',
    title: 'aiRead.title',
    description: 'aiRead.description',
    look: { icon: 'text', color: '#d9730d', category: 'ai' },
  },
  'chat-pdf': {
    slug: 'chat-pdf',
    title: 'chatPdf.title',
    description: 'chatPdf.description',
    look: { icon: 'comment', color: '#e5322d', category: 'ai' },
  },
  'ai-translator': {
    slug: 'ai-translator',
    title: 'aiTranslator.title',
    description: 'aiTranslator.description',
    look: { icon: 'globe', color: '#0b7fab', category: 'ai' },
  },
  'ai-proofread': {
    slug: 'ai-proofread',
    title: 'aiProofread.title',
    description: 'aiProofread.description',
    look: { icon: 'check', color: '#1f9d6b', category: 'ai' },
  },
  'ai-detector': {
    slug: 'ai-detector',
    title: 'aiDetector.title',
    description: 'aiDetector.description',
    look: { icon: 'ai', color: '#7c4dff', category: 'ai' },
  },
  'share-document': {
    slug: 'share-document',
    title: 'shareDocument.title',
    description: 'shareDocument.description',
    look: { icon: 'share', color: '#0b7fab', category: 'protect' },
  },
  'pdf-editor': {
    slug: 'pdf-editor',
    title: 'editor.titleEdit',
    description: 'editor.description',
    look: { icon: 'edit', color: '#6b4fd8', category: 'edit' },
    query: '?t=edit',
  },
} as const satisfies Record<string, AppPage>;

/**
 * Every page the tool search finds: the registry's tools, then the pages of their own that are no
 * tool of it (the AI tools, sharing, the editor in both of its modes).
 */
export const searchablePages: AppPage[] = [
  ...toolDefinitions.map((tool) => linkedPage({ kind: 'tool', tool })),
  ...Object.values(appPages).filter((page) => !toolDefinitions.some((tool) => tool.slug === page.slug)),
  {
    ...appPages['pdf-editor'],
    title: 'editor.titleAnnotate',
    look: { ...appPages['pdf-editor'].look, icon: 'annotate' },
    query: '?t=annotate',
  },
];

export type NavChild = { kind: 'tool'; tool: ToolDefinition } | { kind: 'page'; page: AppPage };

export type NavItem =
  | { kind: 'link'; id: string; labelKey: MessageKey; icon: IconName; path: string }
  | { kind: 'group'; id: string; labelKey: MessageKey; icon: IconName; children: NavChild[] };

// The product's children of each group, by slug.
const specChildren: Record<ToolCategory, string[]> = {
  // Edit PDF opens the editor; the page-editing tools (crop, replace text) join it here.
  edit: ['pdf-editor'],
  convert: ['pdf-to-word', 'pdf-to-jpg', 'pdf-to-excel', 'pdf-to-ppt', 'pdf-to-html'],
  organize: ['merge-pdf', 'compress-pdf', 'split-pdf', 'extract-images-from-pdf', 'rearrange-pdf-pages'],
  protect: ['protect-pdf', 'unlock-pdf', 'redact-pdf', 'sign-pdf', 'share-document'],
  ai: ['chat-pdf', 'ai-translator', 'ai-proofread', 'ai-detector', 'ai-read'],
};

/** The page a child links to: its tool's, or a page of its own. */
export function linkedPage(child: NavChild): AppPage {
  if (child.kind === 'page') return child.page;
  const { look, texts } = toolPageOf(child.tool);
  return { slug: child.tool.slug, title: texts.title, description: texts.description, look };
}

function specChild(slug: string): NavChild {
  const tool = toolDefinitions.find((t) => t.slug === slug);
  if (tool) return { kind: 'tool', tool };
  if (Object.hasOwn(appPages, slug)) return { kind: 'page', page: appPages[slug as keyof typeof appPages] };
  throw new Error(`No tool or page for the sidebar entry ${slug}`);
}

/** The product's children in its order, then built tools of the same category it does not list. */
function groupChildren(group: ToolCategory): NavChild[] {
  const extra = toolDefinitions
    .filter((t) => toolPageOf(t).look.category === group && t.listed !== false && !specChildren[group].includes(t.slug))
    .map((tool): NavChild => ({ kind: 'tool', tool }));
  return [...specChildren[group].map(specChild), ...extra];
}

export const sidebarItems: NavItem[] = [
  { kind: 'link', id: 'home', labelKey: 'nav.home', icon: 'home', path: '/app/home' },
  { kind: 'link', id: 'template', labelKey: 'nav.template', icon: 'template', path: '/template' },
  { kind: 'link', id: 'document-cloud', labelKey: 'nav.documentCloud', icon: 'cloud', path: '/app/document-cloud' },
  { kind: 'link', id: 'annotate', labelKey: 'nav.annotate', icon: 'annotate', path: '/app/pdf-editor?t=annotate' },
  { kind: 'group', id: 'edit', labelKey: 'nav.editPdf', icon: 'edit', children: groupChildren('edit') },
  { kind: 'group', id: 'convert', labelKey: 'nav.convert', icon: 'convert', children: groupChildren('convert') },
  { kind: 'group', id: 'organize', labelKey: 'nav.organize', icon: 'organize', children: groupChildren('organize') },
  { kind: 'group', id: 'protect', labelKey: 'nav.protect', icon: 'protect', children: groupChildren('protect') },
  { kind: 'group', id: 'ai', labelKey: 'nav.aiTools', icon: 'ai', children: groupChildren('ai') },
];

export type NavGroup = Extract<NavItem, { kind: 'group' }>;

const builtCount = (g: NavGroup) => g.children.filter((c) => c.kind === 'tool').length;

/** Tool categories for the marketing menus and the "All tools" list: those with built tools first. */
export const toolCategories: NavGroup[] = sidebarItems
  .filter((item): item is NavGroup => item.kind === 'group')
  .sort((a, b) => builtCount(b) - builtCount(a));
