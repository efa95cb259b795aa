// The message centre (spec §2): the bell with the unread badge, its popover (Messages and System
// notices tabs, All or Unread, Mark all as read, History), and the list the /app/message page shows.
// Opening an item marks it read and follows its link: a site path in the app, an address in a new tab.
import { isSiteLink, type MessageItem, type TemplateType } from '@quire/contracts';
import { useCallback, useEffect, useId, useRef, useState, type CSSProperties } from 'react';
import { useNavigate } from 'react-router';
import { useSession } from '../account/session';
import { fetchMessages, markMessagesRead } from '../api/messages';
import { useI18n } from '../i18n/I18nProvider';
import { Icon } from '../ui/Icon';
import { LocaleLink } from '../ui/LocaleLink';
import { Modal } from '../ui/Modal';
import { Tabs } from '../ui/Tabs';
import { useInterruption } from '../ui/interruptions';
import { useDismiss } from '../ui/useDismiss';
import { setUnreadCounts, useUnreadCounts } from './unreadStore';
import './messages.css';

const MINUTE = 60;
const DAY = 24 * 3600;

/** Under a day: "5 minutes ago"; older: the date and time. */
export function messageTime(createSeconds: number, locale: string, nowMs: number): string {
  const ago = Math.max(0, Math.floor(nowMs / 1000) - createSeconds);
  if (ago < DAY) {
    const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
    if (ago < MINUTE) return relative.format(0, 'second');
    return ago < 3600 ? relative.format(-Math.floor(ago / MINUTE), 'minute') : relative.format(-Math.floor(ago / 3600), 'hour');
  }
  return new Date(createSeconds * 1000).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
}

/** Marks an item read (once) and opens its link; answers when done. */
function useOpenMessage(onRead: (id: string) => void, onNavigate?: () => void) {
  const navigate = useNavigate();
  const { localePath } = useI18n();
  return useCallback(
    async (m: MessageItem) => {
      if (m.is_read === 0) {
        onRead(m.user_msg_id);
        try {
          setUnreadCounts(await markMessagesRead({ ids: [m.user_msg_id] }));
        } catch {
          // Not marked this time: the next look at the list shows it unread again.
        }
      }
      // A link stored before links were checked, which a browser would read as another site's, leads nowhere.
      if (!isSiteLink(m.site_url)) return;
      onNavigate?.();
      if (/^https?:/i.test(m.site_url)) window.open(m.site_url, '_blank', 'noopener,noreferrer');
      else void navigate(localePath(m.site_url));
    },
    [navigate, localePath, onRead, onNavigate],
  );
}

/** The items, newest first; a click or Enter opens one. */
function MessageRows({ items, onOpen }: { items: MessageItem[]; onOpen(m: MessageItem): void }) {
  const { t, locale } = useI18n();
  const now = Date.now();
  return (
    <ul className="message-list">
      {items.map((m) => (
        <li key={m.user_msg_id}>
          <button
            type="button"
            className={`message-item ${m.is_read ? '' : 'unread'}`}
            data-testid="message-item"
            data-read={m.is_read}
            onClick={() => onOpen(m)}
          >
            <span className={`message-icon kind-${m.template_type}`} aria-hidden="true">
              {m.icon_url ? (
                <img src={m.icon_url} alt="" width={36} height={36} />
              ) : (
                <Icon name={m.template_type === 1 ? 'mail' : 'alert'} size={18} />
              )}
            </span>
            <span className="message-body">
              <span className="message-head">
                <strong className="message-title">{m.title}</strong>
                {m.is_read === 0 && <span className="message-dot" title={t('messages.unread')} />}
              </span>
              <time className="message-time" dateTime={new Date(m.create_time * 1000).toISOString()}>
                {messageTime(m.create_time, locale, now)}
              </time>
              {m.remark && <span className="message-remark">{m.remark}</span>}
              {m.site_img && <img className="message-image" src={m.site_img} alt="" loading="lazy" />}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

type Filter = 'all' | 'unread';

type MessageTab = 'messages' | 'system';

/** The tabs, the filter, Mark all as read and the list; `compact` in the popover, else a page's. */
export function MessageCentre({ compact, onNavigate, onHistory }: { compact: boolean; onNavigate?(): void; onHistory?(): void }) {
  const { t } = useI18n();
  const session = useSession();
  const counts = useUnreadCounts(session.user?.user_id);
  const [tab, setTab] = useState<MessageTab>('messages');
  const kind: TemplateType = tab === 'messages' ? 1 : 2;
  const [filter, setFilter] = useState<Filter>('all');
  const [items, setItems] = useState<MessageItem[]>();
  const [failed, setFailed] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: asked again whenever the tab, the filter, the account or the unread count (a message read or arrived) changes
  useEffect(() => {
    const stop = new AbortController();
    fetchMessages({ templateType: kind, unreadOnly: filter === 'unread' }, stop.signal).then(
      (list) => {
        setItems(list);
        setFailed(false);
      },
      () => !stop.signal.aborted && setFailed(true),
    );
    return () => stop.abort();
  }, [kind, filter, session.user?.user_id, counts.total_unread_count]);

  const markedRead = useCallback(
    (id: string) => setItems((list) => list?.map((m) => (m.user_msg_id === id ? { ...m, is_read: 1 } : m))),
    [],
  );
  const open = useOpenMessage(markedRead, onNavigate);
  const markAll = async () => {
    try {
      setUnreadCounts(await markMessagesRead({ all: true }));
      setItems((list) => list?.map((m) => ({ ...m, is_read: 1 })));
    } catch {
      setFailed(true);
    }
  };

  const tabs: { id: MessageTab; label: string; count: number }[] = [
    { id: 'messages', label: t('messages.tabMessages'), count: counts.unread_msg_count },
    { id: 'system', label: t('messages.tabSystem'), count: counts.unread_system_count },
  ];
  return (
    <div className={`message-centre ${compact ? 'compact' : ''}`}>
      <Tabs<MessageTab>
        tabs={tabs.map(({ id, label, count }) => ({
          id,
          label: (
            <>
              {label}
              {count > 0 && <span className="tab-count">{count > 99 ? '99+' : count}</span>}
            </>
          ),
        }))}
        current={tab}
        onChoose={setTab}
        testIdPrefix="message-tab-"
        label={t('messages.title')}
      />
      <div className="message-tools">
        <fieldset className="message-filter" aria-label={t('messages.filter')}>
          {(['all', 'unread'] as const).map((f) => (
            <button
              key={f}
              type="button"
              aria-pressed={filter === f}
              className={filter === f ? 'active' : ''}
              data-testid={`message-filter-${f}`}
              onClick={() => setFilter(f)}
            >
              {f === 'all' ? t('messages.filterAll') : t('messages.filterUnread')}
            </button>
          ))}
        </fieldset>
        <button
          type="button"
          className="message-link-button"
          disabled={counts.total_unread_count === 0}
          onClick={() => void markAll()}
          data-testid="message-mark-all"
        >
          <Icon name="check" size={16} />
          {t('messages.markAllRead')}
        </button>
      </div>
      <div className="message-scroll">
        {failed && <p className="message-empty">{t('messages.loadFailed')}</p>}
        {!failed && items?.length === 0 && (
          <p className="message-empty" data-testid="message-empty">
            {filter === 'unread' ? t('messages.noneUnread') : t('messages.none')}
          </p>
        )}
        {!failed && items && items.length > 0 && <MessageRows items={items} onOpen={(m) => void open(m)} />}
      </div>
      {compact && (
        <div className="message-foot">
          <button type="button" className="message-link-button" onClick={onHistory} data-testid="message-history">
            <Icon name="clock" size={16} />
            {t('messages.history')}
          </button>
          <LocaleLink to="/app/message" className="message-link-button" onClick={onNavigate} data-testid="message-page-link">
            {t('messages.openPage')}
            <Icon name="arrowRight" size={16} />
          </LocaleLink>
        </div>
      )}
    </div>
  );
}

/** Every message and notice, newest first, in a dialog. */
function HistoryDialog({ onClose }: { onClose(): void }) {
  const { t } = useI18n();
  const titleId = useId();
  const [items, setItems] = useState<MessageItem[]>();
  useEffect(() => {
    const stop = new AbortController();
    fetchMessages({}, stop.signal).then(setItems, () => !stop.signal.aborted && setItems([]));
    return () => stop.abort();
  }, []);
  const markedRead = useCallback(
    (id: string) => setItems((list) => list?.map((m) => (m.user_msg_id === id ? { ...m, is_read: 1 } : m))),
    [],
  );
  const open = useOpenMessage(markedRead, onClose);
  return (
    <Modal className="message-history-dialog" labelledBy={titleId} testId="message-history-dialog" onClose={onClose}>
      <div className="message-history-head">
        <h2 id={titleId}>{t('messages.historyTitle')}</h2>
        <button
          type="button"
          className="icon-button"
          aria-label={t('messages.close')}
          onClick={onClose}
          data-testid="message-history-close"
        >
          <Icon name="close" />
        </button>
      </div>
      <div className="message-scroll">
        {items?.length === 0 && <p className="message-empty">{t('messages.none')}</p>}
        {items && items.length > 0 && <MessageRows items={items} onOpen={(m) => void open(m)} />}
      </div>
    </Modal>
  );
}

const POPOVER_GAP = 8;
const POPOVER_WIDTH = 380;

/** Where the popover goes: below the bell in a header, above it near the foot of the window; always inside it. */
function popoverPlace(button: HTMLElement): CSSProperties {
  const r = button.getBoundingClientRect();
  const width = Math.min(POPOVER_WIDTH, window.innerWidth - 2 * POPOVER_GAP);
  const left = Math.min(Math.max(POPOVER_GAP, r.right - width), window.innerWidth - width - POPOVER_GAP);
  const below = r.top < window.innerHeight / 2;
  return below
    ? { left, width, top: r.bottom + POPOVER_GAP, maxHeight: window.innerHeight - r.bottom - 2 * POPOVER_GAP }
    : { left, width, bottom: window.innerHeight - r.top + POPOVER_GAP, maxHeight: r.top - 2 * POPOVER_GAP };
}

/** The bell with the unread badge; it opens the popover. */
export function MessageBell({ className = '' }: { className?: string }) {
  const { t } = useI18n();
  const session = useSession();
  const counts = useUnreadCounts(session.user?.user_id);
  const [open, setOpen] = useState(false);
  const [history, setHistory] = useState(false);
  const [place, setPlace] = useState<CSSProperties>();
  const anchor = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const popoverId = useId();
  // Closed from inside (Escape, a link followed), the focus goes back to the bell.
  const close = useCallback(() => {
    if (anchor.current?.contains(document.activeElement)) button.current?.focus();
    setOpen(false);
  }, []);
  useDismiss(anchor, open, close);

  useEffect(() => {
    if (!open) return;
    const follow = () => button.current && setPlace(popoverPlace(button.current));
    follow();
    window.addEventListener('resize', follow);
    return () => window.removeEventListener('resize', follow);
  }, [open]);

  const total = counts.total_unread_count;
  // The count stays in the bell's name; the badge waits while another interruption shows.
  const badge = useInterruption('badge', total > 0);
  return (
    <div ref={anchor} className={`message-bell ${className}`}>
      <button
        ref={button}
        type="button"
        className="icon-button message-bell-button"
        aria-label={total > 0 ? t('messages.bellUnread', { count: total }) : t('messages.bell')}
        aria-expanded={open}
        aria-controls={open ? popoverId : undefined}
        data-testid="message-bell"
        onClick={() => setOpen(!open)}
      >
        <Icon name="bell" />
        {badge && (
          <span className="message-badge" data-testid="message-badge" aria-hidden="true">
            {total > 99 ? '99+' : total}
          </span>
        )}
      </button>
      {open && place && (
        <section id={popoverId} className="message-popover" style={place} aria-label={t('messages.title')} data-testid="message-popover">
          <MessageCentre
            compact
            onNavigate={close}
            onHistory={() => {
              close();
              setHistory(true);
            }}
          />
        </section>
      )}
      {history && (
        <HistoryDialog
          onClose={() => {
            setHistory(false);
            button.current?.focus();
          }}
        />
      )}
    </div>
  );
}
