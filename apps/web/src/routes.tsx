// The route table, built from the tool registry, repeated under each language prefix.
import { toolDefinitions } from '@quire/contracts';
import { Navigate, Outlet, useLocation, useParams, type RouteObject } from 'react-router';
import { AccountPage } from './account/AccountPage';
import { AdminPage } from './admin/AdminPage';
import { AiDetectorPage } from './ai/detector/AiDetectorPage';
import { AiDetectorResultPage } from './ai/detector/AiDetectorResultPage';
import { AiProofreadPage } from './ai/proofread/AiProofreadPage';
import { AiTranslatorPage } from './ai/translator/AiTranslatorPage';
import { SelfCheckPage } from './admin/SelfCheckPage';
import { LinkPage, type LinkKind } from './account/LinkPage';
import { SessionProvider } from './account/session';
import { DocumentCloudPage } from './cloud/DocumentCloudPage';
import { EditorPage } from './editor/EditorPage';
import { SsoCallbackPage } from './account/SingleSignOn';
import { I18nProvider } from './i18n/I18nProvider';
import { langPrefixes } from './i18n/locales';
import { AppShell } from './layout/AppShell';
import { MarketingLayout } from './layout/MarketingLayout';
import { AppHome } from './pages/AppHome';
import { MarketingHome } from './pages/MarketingHome';
import { resolveRedirect } from './routing/redirects';
import { DownloadFilePage } from './preview/DownloadFilePage';
import { PreviewPage } from './preview/PreviewPage';
import { PricingPage } from './pricing/PricingPage';
import { ShareDocumentPage } from './share/ShareDocumentPage';
import { TemplateGalleryPage } from './templates/TemplateGalleryPage';
import { TemplatePreviewPage } from './templates/TemplatePreviewPage';
import { ToolPage } from './tool/ToolPage';
import { ToastProvider } from './ui/Toast';

function Root() {
  return (
    <I18nProvider>
      <ToastProvider>
        <SessionProvider>
          <Outlet />
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

function TemplatePreviewPageById() {
  const { id } = useParams();
  return <TemplatePreviewPage key={id} />;
}

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
        { path: 'template', element: <TemplateGalleryPage /> },
        // Keyed by id so moving from one template to another starts a fresh page.
        { path: 'template/:cat/:title/:id/:catId', element: <TemplatePreviewPageById /> },
        { path: 'admin', element: <AdminPage /> },
      ],
    },
    // The single sign-on popup's last page: no shell, it closes at once.
    { path: `${base}/app/login-callback.html`, element: <SsoCallbackPage /> },
    // The viewer takes the whole window, outside the app's shell.
    { path: `${base}/preview`, element: <PreviewPage /> },
    {
      path: `${base}/app`,
      element: <AppShell />,
      children: [
        { index: true, element: <Navigate to="home" replace /> },
        { path: 'home', element: <AppHome /> },
        { path: 'account', element: <AccountPage /> },
        { path: 'document-cloud', element: <DocumentCloudPage /> },
        { path: 'share-document', element: <ShareDocumentPage /> },
        { path: 'download-file', element: <DownloadFilePage /> },
        { path: 'pdf-editor', element: <EditorPage /> },
        { path: 'automated-test', element: <SelfCheckPage /> },
        { path: 'ai-detector', element: <AiDetectorPage /> },
        { path: 'ai-detector-result', element: <AiDetectorResultPage /> },
        { path: 'ai-translator', element: <AiTranslatorPage /> },
        { path: 'ai-proofread', element: <AiProofreadPage /> },
        // Keyed by tool so moving between tools starts a fresh page.
        ...toolDefinitions.map((tool) => ({ path: tool.slug, element: <ToolPage key={tool.slug} tool={tool} /> })),
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
