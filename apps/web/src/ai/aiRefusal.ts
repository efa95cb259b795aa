// Which upgrade dialog a limit met on an AI page opens: the AI plan's, never Premium's pitch of OCR
// and no ads. Chat with PDF has its own (chatLimit, chatLimitPage), the other AI pages AiSize and AiPage.
import type { AiFileInfo, UserInfo } from '@quire/contracts';
import { useEffect, useRef } from 'react';
import type { Upgrade } from '../api/client';
import type { AnalysisState } from './chat/useAnalysis';

/** The AI page's own dialogs: for a file over the plan's size, and for a document read only in part. */
export interface AiPageDialogs {
  size: 'chatLimit' | 'AiSize';
  pages: 'chatLimitPage' | 'AiPage';
}
export const chatDialogs: AiPageDialogs = { size: 'chatLimit', pages: 'chatLimitPage' };
export const aiPageDialogs: AiPageDialogs = { size: 'AiSize', pages: 'AiPage' };

/**
 * A size refusal (the upload's, or the analysis's AiSize) as the AI page's size dialog. A paid
 * plan's (sizeVip) stays as it is: the AI plan takes no larger files, so nothing is offered.
 */
export function onAiPage(refusal: Upgrade, dialogs: AiPageDialogs): Upgrade {
  return refusal.upgrade === 'sizeUpgrade' || refusal.upgrade === 'AiSize' ? { ...refusal, upgrade: dialogs.size } : refusal;
}

/**
 * The dialog for a document the plan's AI reads only the first pages of, when the AI plan would
 * read more; none for a plan that has the AI plan already (the page's status line says it).
 */
export function partlyReadRefusal(info: AiFileInfo, user: UserInfo | null, dialogs: AiPageDialogs): Upgrade | undefined {
  if (user?.ai || info.analysed_pages >= info.total_page) return undefined;
  return { upgrade: dialogs.pages, limit: info.analysed_pages };
}

/**
 * Opens the AI page's dialogs for its analysis: the size dialog when the analysis refused the
 * file, the pages dialog once when it read a new document in part (`newDocument`: not for a
 * conversation reopened, whose document was offered it before).
 */
export function useAnalysisRefusal(
  analysis: AnalysisState,
  user: UserInfo | null,
  dialogs: AiPageDialogs,
  open: (r: Upgrade) => void,
  newDocument = true,
) {
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current) return;
    const refusal =
      analysis.phase === 'failed'
        ? analysis.error.upgrade && onAiPage(analysis.error.upgrade, dialogs)
        : analysis.phase === 'ready' && newDocument
          ? partlyReadRefusal(analysis.info, user, dialogs)
          : undefined;
    if (!refusal) return;
    opened.current = true;
    open(refusal);
  }, [analysis, user, dialogs, open, newDocument]);
}
