// /app/chat-pdf: one PDF uploaded to the document cloud, analysed (the AI status flow), summarised
// with its keywords, outline and suggested questions, then asked about: answers stream in with the
// pages they rest on, and a page cited opens beside the chat. Conversations can be reopened, pinned,
// renamed, shared and deleted; notes are kept per page. A shared conversation (?conversation=<code>)
// is read here without an account.
import type { AiSummary, LimitRefusal } from '@quire/contracts';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { UpgradeDialog } from '../../account/UpgradeDialog';
import { conversationsOf, summaryOf, type AiConversation } from '../../api/aiChat';
import { ApiError } from '../../api/client';
import { addUpload, cloudDownloadUrl } from '../../api/cloud';
import { useI18n } from '../../i18n/I18nProvider';
import { Icon } from '../../ui/Icon';
import { Tabs } from '../../ui/Tabs';
import { useLeaveConfirm } from '../../tool/useLeaveConfirm';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { useSession } from '../../account/session';
import { AiPage } from '../AiPage';
import { chatDialogs, useAnalysisRefusal } from '../aiRefusal';
import { PdfDrop } from '../PdfDrop';
import { WorkspaceBar } from '../WorkspaceBar';
import { ChatPanel } from './ChatPanel';
import { DocumentPages } from './DocumentPages';
import { NotesPanel } from './NotesPanel';
import { SharedConversation } from './SharedConversation';
import { useAnalysis } from './useAnalysis';
import './chat.css';

/** The document being chatted about: its cloud file, and where its bytes are read from. */
interface OpenedFile {
  fileId: string;
  name: string;
  /** The picked file itself, or its cloud download (a conversation reopened). */
  source: Blob | string;
  /** A conversation to continue. */
  conversationId?: string;
}

export function ChatPdfPage() {
  const { t } = useI18n();
  const [params] = useSearchParams();
  const shareCode = params.get('conversation');
  if (shareCode) return <SharedConversation shareCode={shareCode} />;
  return (
    <AiPage title={t('chatPdf.title')} intro={t('chatPdf.intro')} signInText={t('chatPdf.signIn')}>
      <ChatPdf />
    </AiPage>
  );
}

function ChatPdf() {
  const [opened, setOpened] = useState<OpenedFile>();
  return opened ? (
    <ChatWorkspace key={opened.fileId} opened={opened} onClose={() => setOpened(undefined)} />
  ) : (
    <ChatStart onOpen={setOpened} />
  );
}

/** Picking the PDF (it goes to the document cloud), or reopening an earlier conversation. */
function ChatStart({ onOpen }: { onOpen(file: OpenedFile): void }) {
  const { t, locale } = useI18n();
  const [recent, setRecent] = useState<AiConversation[]>([]);

  useEffect(() => {
    conversationsOf().then(setRecent, () => undefined);
  }, []);

  return (
    <>
      <PdfDrop
        testId="chat"
        dialogs={chatDialogs}
        hint={t('chatPdf.cloudHint')}
        onUploaded={async (file, uploaded) => {
          const saved = await addUpload(uploaded.file_id, null, 'rename');
          onOpen({ fileId: saved.file_id, name: saved.name, source: file });
        }}
      />
      {recent.length > 0 && (
        <section className="card chat-recent" data-testid="chat-recent">
          <h2>{t('chatPdf.recent')}</h2>
          <ul>
            {recent.map((c) => (
              <li key={c.conversation_id}>
                <button
                  type="button"
                  className="chat-recent-item"
                  onClick={() =>
                    onOpen({ fileId: c.file_id, name: c.file_name, source: cloudDownloadUrl(c.file_id), conversationId: c.conversation_id })
                  }
                >
                  <Icon name="comment" size={18} />
                  <span className="chat-recent-title">{c.title}</span>
                  <span className="chat-recent-file">{c.file_name}</span>
                  <span className="chat-recent-date">{new Date(c.updated_at).toLocaleDateString(locale, { dateStyle: 'medium' })}</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}

type Pane = 'document' | 'chat' | 'notes';

/** The document beside the chat (on a phone, one of three tabs). */
function ChatWorkspace({ opened, onClose }: { opened: OpenedFile; onClose(): void }) {
  const { t } = useI18n();
  const analysis = useAnalysis(opened.fileId);
  const { user } = useSession();
  const [summary, setSummary] = useState<{ data?: AiSummary; error?: ApiError; loading: boolean }>({ loading: false });
  const [refusal, setRefusal] = useState<LimitRefusal>();
  const [pane, setPane] = useState<Pane>('chat');
  const [page, setPage] = useState<{ number: number; at: number }>();
  const asked = useRef(false);
  // Leaving with a document open asks first; its conversations are kept either way.
  const leaving = useLeaveConfirm(true);
  useAnalysisRefusal(analysis, user, chatDialogs, setRefusal, !opened.conversationId);

  // A new document is summarised once it is analysed; a reopened conversation goes on without.
  useEffect(() => {
    if (analysis.phase !== 'ready' || opened.conversationId || asked.current) return;
    asked.current = true;
    setSummary({ loading: true });
    summaryOf(opened.fileId).then(
      (data) => setSummary({ data, loading: false }),
      (e: unknown) => {
        const error = e instanceof ApiError ? e : new ApiError(-1);
        if (error.upgrade) setRefusal(error.upgrade);
        setSummary({ error, loading: false });
      },
    );
  }, [analysis.phase, opened]);

  const jump = useCallback((number: number) => {
    setPage({ number, at: Date.now() });
    setPane('document');
  }, []);

  const info = analysis.phase === 'failed' ? undefined : analysis.info;
  const status = useMemo(() => {
    if (analysis.phase === 'failed') return analysis.error.message;
    if (analysis.phase === 'ready') {
      const { analysed_pages, total_page } = analysis.info;
      return analysed_pages < total_page ? t('chatPdf.partlyRead', { read: analysed_pages, total: total_page }) : undefined;
    }
    return info?.status === 'uploading' ? t('chatPdf.uploading') : t('chatPdf.analysing');
  }, [analysis, info, t]);

  return (
    <section className="chat-workspace" data-testid="chat-workspace" data-pane={pane}>
      <WorkspaceBar<Pane>
        fileName={opened.name}
        onOtherFile={onClose}
        panes={[
          { id: 'document', label: t('chatPdf.document') },
          { id: 'chat', label: t('chatPdf.chat') },
          { id: 'notes', label: t('chatPdf.notes') },
        ]}
        pane={pane}
        onPane={setPane}
        testId="chat"
      />
      <div className="chat-columns">
        <DocumentPages source={opened.source} page={page} />
        <div className="chat-side">
          <div className="chat-side-tabs">
            <Tabs<Exclude<Pane, 'document'>>
              tabs={[
                { id: 'chat', label: t('chatPdf.chat') },
                { id: 'notes', label: t('chatPdf.notes') },
              ]}
              current={pane === 'notes' ? 'notes' : 'chat'}
              onChoose={setPane}
              testIdPrefix="chat-tab-"
            />
          </div>
          {status && (
            <p
              className={`chat-status ${analysis.phase === 'failed' ? 'failed' : ''}`}
              role={analysis.phase === 'failed' ? 'alert' : 'status'}
              data-testid="chat-status"
              data-phase={analysis.phase}
            >
              {analysis.phase === 'waiting' && <span className="spinner spinner-small" aria-hidden="true" />}
              {status}
            </p>
          )}
          {pane === 'notes' ? (
            <NotesPanel fileId={opened.fileId} ready={analysis.phase === 'ready'} onJump={jump} />
          ) : (
            <ChatPanel
              fileId={opened.fileId}
              ready={analysis.phase === 'ready'}
              initialConversation={opened.conversationId}
              summary={summary}
              onJump={jump}
              onRefusal={setRefusal}
            />
          )}
        </div>
      </div>
      {refusal && <UpgradeDialog refusal={refusal} onClose={() => setRefusal(undefined)} />}
      {leaving && (
        <ConfirmDialog
          title={t('leave.title')}
          message={t('chatPdf.leaveMessage')}
          confirmLabel={t('leave.confirm')}
          cancelLabel={t('leave.stay')}
          onConfirm={leaving.proceed}
          onCancel={leaving.stay}
        />
      )}
    </section>
  );
}
