// The app sidebar. Built tools come from the registry; entries the product lists
// that are not built yet stay visible as "coming soon" and link nowhere.
import { toolDefinitions, type ToolDefinition } from '@quire/contracts';
import type { MessageKey } from '../i18n/translate';
import { toolPageOf, type ToolCategory } from '../tool/toolPages';
import type { IconName } from '../ui/Icon';

export type NavChild = { kind: 'tool'; tool: ToolDefinition } | { kind: 'soon'; labelKey: MessageKey };

export type NavItem =
  | { kind: 'link'; id: string; labelKey: MessageKey; icon: IconName; path: string }
  | { kind: 'soon'; id: string; labelKey: MessageKey; icon: IconName }
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

// Labels of the children not built yet; a built tool's label is its title.
const comingSoonLabels: Record<string, MessageKey> = {
  'pdf-editor': 'soon.pdfEditor',
  'sign-pdf': 'soon.signPdf',
  'share-document': 'soon.shareDocument',
  'chat-pdf': 'soon.chatPdf',
  'ai-translator': 'soon.aiTranslator',
  'ai-proofread': 'soon.aiProofread',
  'ai-detector': 'soon.aiDetector',
  'ai-read': 'soon.aiRead',
};

function specChild(slug: string): NavChild {
  const tool = toolDefinitions.find((t) => t.slug === slug);
  if (tool) return { kind: 'tool', tool };
  const labelKey = comingSoonLabels[slug];
  if (!labelKey) throw new Error(`No label for the sidebar entry ${slug}`);
  return { kind: 'soon', labelKey };
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
  { kind: 'soon', id: 'template', labelKey: 'nav.template', icon: 'template' },
  { kind: 'link', id: 'document-cloud', labelKey: 'nav.documentCloud', icon: 'cloud', path: '/app/document-cloud' },
  { kind: 'soon', id: 'annotate', labelKey: 'nav.annotate', icon: 'annotate' },
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
