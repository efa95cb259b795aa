// The route table, built from the tool registry, repeated under each language prefix.
import { ACTIVITY_FREE_PATH, landingPages, toolDefinitions, type ToolDefinition } from '@quire/contracts';
import type { ComponentType } from 'react';
import { Navigate, Outlet, useLocation, useParams, type RouteObject } from 'react-router';
import { ActivityHost } from './activity/ActivityHost';
import { LinkPage, type LinkKind } from './account/LinkPage';
import { OccupationSurvey } from './account/OccupationSurvey';
import { SessionProvider } from './account/session';
import { SsoCallbackPage } from './account/SingleSignOn';
import { loadEnglishRest } from './i18n/english';
import { I18nProvider } from './i18n/I18nProvider';
import { MetaDescription } from './i18n/MetaDescription';
import { langPrefixes, splitLocalePrefix } from './i18n/locales';
import { useRememberedLanguage } from './i18n/rememberedLanguage';
import { AppShell } from './layout/AppShell';
import { MarketingLayout } from './layout/MarketingLayout';
import { LandingPage } from './landing/LandingPage';
import { AllToolsPage } from './pages/AllToolsPage';
import { AppHome } from './pages/AppHome';
import { MarketingHome } from './pages/MarketingHome';
import { resolveRedirect } from './routing/redirects';
import { PricingPage } from './pricing/PricingPage';
import { TemplateGalleryPage } from './templates/TemplateGalleryPage';
import { InterruptionProvider } from './ui/interruptions';
import { ToastProvider } from './ui/Toast';

function Root() {
  useRememberedLanguage();
  // The page the activity dialog embeds shows nothing of its own over itself.
  const embedded = splitLocalePrefix(useLocation().pathname).rest === ACTIVITY_FREE_PATH;
  return (
    <I18nProvider>
      <MetaDescription />
      <ToastProvider>
        <SessionProvider>
          <InterruptionProvider>
            <Outlet />
            {!embedded && (
              <>
                <OccupationSurvey />
                <ActivityHost />
              </>
            )}
          </InterruptionProvider>
        </SessionProvider>
      </ToastProvider>
    </I18nProvider>
  );
}

/** Legacy paths and anything unknown redirect. */
function Fallback() {
  const { pathname, search } = useLocation();
  return <Navigate to={resolveRedirect(pathname, search)} replace />;
}

/**
 * A page fetched when first visited: only the home pages, the marketing pages and the shell are in
 * the home page's bundle (its budget: e2e/homeBundle.test.ts). It comes with the English texts the
 * shell does not carry (ADR 0544).
 */
const lazyPage = (load: () => Promise<ComponentType>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => {
    const [Component] = await Promise.all([load(), loadEnglishRest()]);
    return { Component };
  },
});

const accountPage = lazyPage(async () => (await import('./account/AccountPage')).AccountPage);
const documentCloudPage = lazyPage(async () => (await import('./cloud/DocumentCloudPage')).DocumentCloudPage);
const downloadFilePage = lazyPage(async () => (await import('./preview/DownloadFilePage')).DownloadFilePage);
const previewPage = lazyPage(async () => (await import('./preview/PreviewPage')).PreviewPage);
const shareDocumentPage = lazyPage(async () => (await import('./share/ShareDocumentPage')).ShareDocumentPage);
// Keyed by id so moving from one template to another starts a fresh page.
const templatePreviewPage = lazyPage(async () => {
  const { TemplatePreviewPage } = await import('./templates/TemplatePreviewPage');
  return function TemplatePreviewPageById() {
    return <TemplatePreviewPage key={useParams().id} />;
  };
});
/** A tool's page, keyed by tool so moving between tools starts a fresh page. */
const toolPage = (tool: ToolDefinition) =>
  lazyPage(async () => {
    const { ToolPage } = await import('./tool/ToolPage');
    return function ToolRoute() {
      return <ToolPage key={tool.slug} tool={tool} />;
    };
  });

const adminPage = lazyPage(async () => (await import('./admin/AdminPage')).AdminPage);
const activityFreePage = lazyPage(async () => (await import('./activity/ActivityFreePage')).ActivityFreePage);
const messagePage = lazyPage(async () => (await import('./messages/MessagePage')).MessagePage);
const selfCheckPage = lazyPage(async () => (await import('./admin/SelfCheckPage')).SelfCheckPage);
const editorPage = lazyPage(async () => (await import('./editor/EditorPage')).EditorPage);

const aiPages: RouteObject[] = [
  { path: 'ai-detector', ...lazyPage(async () => (await import('./ai/detector/AiDetectorPage')).AiDetectorPage) },
  { path: 'ai-detector-result', ...lazyPage(async () => (await import('./ai/detector/AiDetectorResultPage')).AiDetectorResultPage) },
  { path: 'ai-translator', ...lazyPage(async () => (await import('./ai/translator/AiTranslatorPage')).AiTranslatorPage) },
  { path: 'ai-proofread', ...lazyPage(async () => (await import('./ai/proofread/AiProofreadPage')).AiProofreadPage) },
  { path: 'chat-pdf', ...lazyPage(async () => (await import('./ai/chat/ChatPdfPage')).ChatPdfPage) },
  { path: 'ai-read', ...lazyPage(async () => (await import('./ai/read/AiReadPage')).AiReadPage) },
];

/** The pages the account's mails link to. */
const linkKinds: LinkKind[] = ['verify-email', 'reset-password', 'confirm-email'];

function routesUnder(prefix: string): RouteObject[] {
  const base = prefix ? `/${prefix}` : '';
  return [
    {
      path: base || '/',
      element: <MarketingLayout />,
      children: [
        { index: true, element: <MarketingHome /> },
        ...linkKinds.map((kind) => ({ path: `account/${kind}`, element: <LinkPage key={kind} kind={kind} /> })),
        { path: 'pricing', element: <PricingPage /> },
        { path: 'all-tools', element: <AllToolsPage /> },
        // Keyed by slug so moving from one landing page to another starts a fresh page.
        ...landingPages.map(({ slug }) => ({ path: slug, element: <LandingPage key={slug} slug={slug} /> })),
        { path: 'template', element: <TemplateGalleryPage /> },
        { path: 'template/:cat/:title/:id/:catId', ...templatePreviewPage },
        { path: 'admin', ...adminPage },
      ],
    },
    // The single sign-on popup's last page: no shell, it closes at once.
    { path: `${base}/app/login-callback.html`, element: <SsoCallbackPage /> },
    // The referral page the activity dialog embeds: no shell.
    { path: `${base}${ACTIVITY_FREE_PATH}`, ...activityFreePage },
    // The viewer takes the whole window, outside the app's shell.
    { path: `${base}/preview`, ...previewPage },
    {
      path: `${base}/app`,
      element: <AppShell />,
      children: [
        { index: true, element: <Navigate to="home" replace /> },
        { path: 'home', element: <AppHome /> },
        // The product's trial home: the same workspace home (keyed: moving between the two starts it afresh).
        { path: 'home-test', element: <AppHome key="home-test" /> },
        { path: 'account', ...accountPage },
        { path: 'document-cloud', ...documentCloudPage },
        { path: 'share-document', ...shareDocumentPage },
        { path: 'download-file', ...downloadFilePage },
        { path: 'pdf-editor', ...editorPage },
        { path: 'automated-test', ...selfCheckPage },
        { path: 'message', ...messagePage },
        ...aiPages,
        ...toolDefinitions.map((tool) => ({ path: tool.slug, ...toolPage(tool) })),
      ],
    },
  ];
}

export const routes: RouteObject[] = [
  {
    element: <Root />,
    children: [...langPrefixes.flatMap(routesUnder), { path: '*', element: <Fallback /> }],
  },
];
