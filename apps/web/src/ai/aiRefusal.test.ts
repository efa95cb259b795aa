import type { AiFileInfo, UserInfo } from '@quire/contracts';
import { describe, expect, it } from 'vitest';
import { aiPageDialogs, chatDialogs, onAiPage, partlyReadRefusal } from './aiRefusal';

const info = (analysed: number, total: number): AiFileInfo => ({
  file_id: 'f',
  file_name: 'a.pdf',
  status: 'success',
  total_page: total,
  analysed_pages: analysed,
});
const user = (ai: boolean) => ({ ai }) as UserInfo;

describe('an AI page’s upgrade dialogs', () => {
  it('sell the AI plan for a file over the size, never Premium’s pitch', () => {
    expect(onAiPage({ upgrade: 'sizeUpgrade', limit: 20 }, chatDialogs)).toEqual({ upgrade: 'chatLimit', limit: 20 });
    expect(onAiPage({ upgrade: 'AiSize', limit: 20, reason: 'x' }, chatDialogs)).toEqual({ upgrade: 'chatLimit', limit: 20, reason: 'x' });
    expect(onAiPage({ upgrade: 'sizeUpgrade', limit: 20 }, aiPageDialogs)).toEqual({ upgrade: 'AiSize', limit: 20 });
    // A paid plan is only told its limit; tokens keep their own dialog.
    expect(onAiPage({ upgrade: 'sizeVip', limit: 100 }, chatDialogs).upgrade).toBe('sizeVip');
    expect(onAiPage({ upgrade: 'AiUpgrade', limit: 5000 }, chatDialogs).upgrade).toBe('AiUpgrade');
  });

  it('offer more pages for a document read in part, unless the plan has the AI plan', () => {
    expect(partlyReadRefusal(info(20, 45), user(false), chatDialogs)).toEqual({ upgrade: 'chatLimitPage', limit: 20 });
    expect(partlyReadRefusal(info(20, 45), null, aiPageDialogs)).toEqual({ upgrade: 'AiPage', limit: 20 });
    expect(partlyReadRefusal(info(150, 400), user(true), chatDialogs)).toBeUndefined();
    expect(partlyReadRefusal(info(3, 3), user(false), chatDialogs)).toBeUndefined();
  });
});
