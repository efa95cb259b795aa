// /app/ai-read: a PDF read with the AI beside it. Text selected in the document brings up a bar of
// the AI's tools (explain, rewrite, summarise, ask); the chosen tool answers in the side panel, and
// an answer's pages open in the document. ?mode=explain|rewrite|summarise|ask opens on that tool
// (the marketing pages' links).
import type { LimitRefusal } from '@quire/contracts';
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { UpgradeDialog } from '../../account/UpgradeDialog';
import { useI18n } from '../../i18n/I18nProvider';
import { usePdfDocument } from '../../pdf/pdfDocument';
import { Icon, type IconName } from '../../ui/Icon';
import { Tabs } from '../../ui/Tabs';
import { useSession } from '../../account/session';
import { AiPage } from '../AiPage';
import { aiPageDialogs, useAnalysisRefusal } from '../aiRefusal';
import { PdfDrop } from '../PdfDrop';
import { WorkspaceBar } from '../WorkspaceBar';
import { useAnalysis } from '../chat/useAnalysis';
import { AskPanel, ExplainPanel, RewritePanel, type Selected, SummarisePanel } from './ReadPanels';
import { ReaderPages } from './ReaderPages';
import '../chat/chat.css';
import './read.css';

const readTools = ['explain', 'rewrite', 'summarise', 'ask'] as const;
type ReadTool = (typeof readTools)[number];
const toolIcons: Record<ReadTool, IconName> = { explain: 'text', rewrite: 'edit', summarise: 'list', ask: 'comment' };

/** Characters of the page's text on each side of a selection sent as its context. */
const CONTEXT_CHARS = 900;

export function AiReadPage() {
  const { t } = useI18n();
  const [params] = useSearchParams();
  const mode = params.get('mode');
  const initial: ReadTool = readTools.find((m) => m === mode) ?? 'explain';
  const [opened, setOpened] = useState<{ file: File; fileId: string }>();
  return (
    <AiPage title={t('aiRead.title')} intro={t('aiRead.intro')} signInText={t('aiRead.signIn')}>
      {opened ? (
        <ReadWorkspace key={opened.fileId} {...opened} initialTool={initial} onClose={() => setOpened(undefined)} />
      ) : (
        <PdfDrop
          testId="read"
          dialogs={aiPageDialogs}
          hint={t('aiRead.hint')}
          onUploaded={(file, uploaded) => setOpened({ file, fileId: uploaded.file_id })}
        />
      )}
    </AiPage>
  );
}

/** The selection as the tool bar offers it: where it is on screen, and what it says. */
interface Floating extends Omit<Selected, 'at'> {
  x: number;
  y: number;
}

/** The page's text around the selection (the text layer's runs, joined by spaces). */
function contextOf(pageElement: Element, text: string): string {
  const pageText = Array.from(pageElement.querySelectorAll('.textLayer span'), (s) => s.textContent ?? '')
    .join(' ')
    .replace(/\s+/g, ' ');
  const at = Math.max(0, pageText.indexOf(text.slice(0, 40)));
  return pageText.slice(Math.max(0, at - CONTEXT_CHARS), at + text.length + CONTEXT_CHARS);
}

/** The text selected in the document's text layer, or undefined. */
function readSelection(): Floating | undefined {
  const selection = document.getSelection();
  if (!selection || selection.isCollapsed || selection.rangeCount === 0) return undefined;
  const node = selection.anchorNode;
  const page = (node instanceof Element ? node : node?.parentElement)?.closest<HTMLElement>('.read-page');
  const text = selection.toString().replace(/\s+/g, ' ').trim();
  if (!page || !text) return undefined;
  const rect = selection.getRangeAt(0).getBoundingClientRect();
  return { text, context: contextOf(page, text), page: Number(page.dataset.page), x: rect.left + rect.width / 2, y: rect.top };
}

type Pane = 'document' | 'ai';

function ReadWorkspace({ file, fileId, initialTool, onClose }: { file: File; fileId: string; initialTool: ReadTool; onClose(): void }) {
  const { t } = useI18n();
  const pdf = usePdfDocument(file);
  const analysis = useAnalysis(fileId);
  const [tool, setTool] = useState<ReadTool>(initialTool);
  const [selected, setSelected] = useState<Selected>();
  const [floating, setFloating] = useState<Floating>();
  const [cited, setCited] = useState<{ page: number; at: number }>();
  const [pane, setPane] = useState<Pane>('document');
  const [refusal, setRefusal] = useState<LimitRefusal>();
  const { user } = useSession();
  useAnalysisRefusal(analysis, user, aiPageDialogs, setRefusal);

  useEffect(() => {
    const follow = () => setFloating(readSelection());
    document.addEventListener('selectionchange', follow);
    return () => document.removeEventListener('selectionchange', follow);
  }, []);

  const choose = (next: ReadTool) => {
    if (!floating) return;
    const { x: _x, y: _y, ...chosen } = floating;
    setSelected({ ...chosen, at: Date.now() });
    setFloating(undefined);
    setTool(next);
    setPane('ai');
  };
  const jump = useCallback((page: number) => {
    setCited({ page, at: Date.now() });
    setPane('document');
  }, []);

  const labels: Record<ReadTool, string> = {
    explain: t('aiRead.tool.explain'),
    rewrite: t('aiRead.tool.rewrite'),
    summarise: t('aiRead.tool.summarise'),
    ask: t('aiRead.tool.ask'),
  };
  const ready = analysis.phase === 'ready';
  const panelProps = { selected, onRefusal: setRefusal };
  return (
    <section className="read-workspace" data-testid="read-workspace" data-pane={pane}>
      <WorkspaceBar<Pane>
        fileName={file.name}
        onOtherFile={onClose}
        panes={[
          { id: 'document', label: t('aiRead.document') },
          { id: 'ai', label: t('aiRead.assistant') },
        ]}
        pane={pane}
        onPane={setPane}
        testId="read"
      />
      <div className="chat-columns">
        <div className="read-document">
          {pdf.doc ? (
            <ReaderPages doc={pdf.doc} cited={cited} />
          ) : pdf.failed ? (
            <p className="ai-error">{t('aiRead.unreadable')}</p>
          ) : (
            <span className="spinner" aria-hidden="true" />
          )}
        </div>
        <div className="chat-side read-side">
          <Tabs<ReadTool>
            tabs={readTools.map((id) => ({ id, label: labels[id] }))}
            current={tool}
            onChoose={setTool}
            testIdPrefix="read-tab-"
          />
          {analysis.phase === 'failed' && (
            <p className="chat-status failed" role="alert">
              {analysis.error.message}
            </p>
          )}
          <div className="read-panel">
            {tool === 'explain' && <ExplainPanel {...panelProps} />}
            {tool === 'rewrite' && <RewritePanel {...panelProps} />}
            {tool === 'summarise' && <SummarisePanel {...panelProps} fileId={fileId} ready={ready} />}
            {tool === 'ask' && <AskPanel {...panelProps} fileId={fileId} ready={ready} onJump={jump} />}
          </div>
        </div>
      </div>
      {floating && (
        <div
          className="read-toolbar"
          role="toolbar"
          aria-label={t('aiRead.toolbar')}
          style={{ left: Math.max(8, Math.min(window.innerWidth - 8, floating.x)), top: Math.max(8, floating.y - 48) }}
          data-testid="read-toolbar"
        >
          {readTools.map((id) => (
            <button
              key={id}
              type="button"
              // Pressing the button must not clear the selection it acts on.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => choose(id)}
              data-testid={`read-do-${id}`}
            >
              <Icon name={toolIcons[id]} size={16} />
              {labels[id]}
            </button>
          ))}
        </div>
      )}
      {refusal && <UpgradeDialog refusal={refusal} onClose={() => setRefusal(undefined)} />}
    </section>
  );
}
