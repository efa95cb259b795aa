import { describe, expect, it } from 'vitest';
import { activityBoxShown, eventPopUpDue } from './activityRules';

const DAY_MS = 24 * 3600_000;
const EVENT = { adv_popshow: 1, adv_url: '', adv_img: '/sale.png' } as const;

describe('activity rules', () => {
  it('hides the floating box on the AI pages and the editor only', () => {
    for (const page of ['chat-pdf', 'ai-read', 'ai-proofread', 'ai-translator', 'pdf-editor'])
      expect(activityBoxShown(`/app/${page}`), page).toBe(false);
    for (const path of ['/', '/app/home', '/app/ai-detector', '/app/merge-pdf', '/pricing'])
      expect(activityBoxShown(path), path).toBe(true);
  });

  it('pops the event up when on and not shown here for more than 7 days', () => {
    const now = 100 * DAY_MS;
    expect(eventPopUpDue(EVENT, undefined, now)).toBe(true);
    expect(eventPopUpDue({ ...EVENT, adv_popshow: 0 }, undefined, now)).toBe(false);
    expect(eventPopUpDue(EVENT, now - DAY_MS, now)).toBe(false);
    expect(eventPopUpDue(EVENT, now - 7 * DAY_MS, now)).toBe(false);
    expect(eventPopUpDue(EVENT, now - 7 * DAY_MS - 1, now)).toBe(true);
  });
});
