// The file's conversations: a new one, and each earlier one to reopen, pin, rename, share (its
// link copied) or delete. Pinned ones come first, as the server lists them.
import { useState, type FormEvent } from 'react';
import { deleteConversation, pinConversation, renameConversation, shareConversation, type AiConversation } from '../../api/aiChat';
import { useI18n } from '../../i18n/I18nProvider';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Icon } from '../../ui/Icon';
import { useToast } from '../../ui/Toast';
import { useCopyText } from '../../ui/useCopyText';

interface ConversationListProps {
  conversations: AiConversation[];
  current: string | undefined;
  onOpen(id: string | undefined): void;
  onChanged(): void;
  onDeleted(id: string): void;
}

export function ConversationList({ conversations, current, onOpen, onChanged, onDeleted }: ConversationListProps) {
  const { t } = useI18n();
  const toast = useToast();
  const copyText = useCopyText();
  const [open, setOpen] = useState(false);
  const [renaming, setRenaming] = useState<{ id: string; title: string }>();
  const [deleting, setDeleting] = useState<AiConversation>();

  const act = async (work: () => Promise<unknown>) => {
    try {
      await work();
      onChanged();
    } catch (e) {
      toast(e instanceof Error ? e.message : String(e));
    }
  };
  const rename = (e: FormEvent) => {
    e.preventDefault();
    if (!renaming?.title.trim()) return;
    const { id, title } = renaming;
    setRenaming(undefined);
    void act(() => renameConversation(id, title.trim()));
  };
  const share = (id: string) =>
    act(async () => {
      const { share_url } = await shareConversation(id);
      await copyText(share_url, { copied: t('chatPdf.linkCopied'), refused: share_url });
    });
  const currentTitle = conversations.find((c) => c.conversation_id === current)?.title;

  return (
    <div className="chat-conversations">
      <div className="chat-conversations-bar">
        <button
          type="button"
          className="button button-small button-ghost chat-conversations-toggle"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
          data-testid="chat-history"
        >
          <Icon name="comment" size={16} />
          <span className="chat-current-title">{currentTitle ?? t('chatPdf.newChat')}</span>
          <span className="chat-count">{conversations.length}</span>
          <Icon name={open ? 'chevronUp' : 'chevronDown'} size={16} />
        </button>
        <button
          type="button"
          className="button button-small button-outline"
          onClick={() => {
            setOpen(false);
            onOpen(undefined);
          }}
          disabled={!current}
          data-testid="chat-new"
        >
          <Icon name="plus" size={16} />
          {t('chatPdf.newChat')}
        </button>
      </div>
      {open && (
        <ul className="chat-conversation-list" data-testid="chat-conversations">
          {conversations.length === 0 && <li className="ai-hint">{t('chatPdf.noConversations')}</li>}
          {conversations.map((c) => (
            <li key={c.conversation_id} className={c.conversation_id === current ? 'current' : ''} data-testid="chat-conversation">
              {renaming?.id === c.conversation_id ? (
                <form className="chat-rename" onSubmit={rename}>
                  <input
                    value={renaming.title}
                    maxLength={240}
                    aria-label={t('chatPdf.renameLabel')}
                    onChange={(e) => setRenaming({ id: c.conversation_id, title: e.target.value })}
                    onKeyDown={(e) => e.key === 'Escape' && setRenaming(undefined)}
                    data-testid="chat-rename-input"
                    // biome-ignore lint/a11y/noAutofocus: the field was just asked for
                    autoFocus
                  />
                  <button type="submit" className="icon-button" aria-label={t('chatPdf.save')} data-testid="chat-rename-save">
                    <Icon name="check" size={16} />
                  </button>
                </form>
              ) : (
                <button
                  type="button"
                  className="chat-conversation-open"
                  onClick={() => {
                    setOpen(false);
                    onOpen(c.conversation_id);
                  }}
                  data-testid="chat-conversation-open"
                >
                  {c.top && <Icon name="star" size={14} filled />}
                  <span>{c.title}</span>
                </button>
              )}
              <span className="chat-conversation-actions">
                <button
                  type="button"
                  className="icon-button"
                  aria-label={c.top ? t('chatPdf.unpin') : t('chatPdf.pin')}
                  title={c.top ? t('chatPdf.unpin') : t('chatPdf.pin')}
                  aria-pressed={c.top}
                  onClick={() => void act(() => pinConversation(c.conversation_id, !c.top))}
                  data-testid="chat-pin"
                >
                  <Icon name="star" size={16} filled={c.top} />
                </button>
                <button
                  type="button"
                  className="icon-button"
                  aria-label={t('chatPdf.rename')}
                  title={t('chatPdf.rename')}
                  onClick={() => setRenaming({ id: c.conversation_id, title: c.title })}
                  data-testid="chat-rename"
                >
                  <Icon name="edit" size={16} />
                </button>
                <button
                  type="button"
                  className="icon-button"
                  aria-label={t('chatPdf.share')}
                  title={t('chatPdf.share')}
                  onClick={() => void share(c.conversation_id)}
                  data-testid="chat-share"
                >
                  <Icon name="share" size={16} />
                </button>
                <button
                  type="button"
                  className="icon-button"
                  aria-label={t('chatPdf.delete')}
                  title={t('chatPdf.delete')}
                  onClick={() => setDeleting(c)}
                  data-testid="chat-delete"
                >
                  <Icon name="trash" size={16} />
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      {deleting && (
        <ConfirmDialog
          title={t('chatPdf.deleteTitle')}
          message={t('chatPdf.deleteMessage', { title: deleting.title })}
          confirmLabel={t('chatPdf.delete')}
          cancelLabel={t('chatPdf.cancel')}
          onCancel={() => setDeleting(undefined)}
          onConfirm={() => {
            const id = deleting.conversation_id;
            setDeleting(undefined);
            void (async () => {
              try {
                await deleteConversation(id);
                onDeleted(id);
              } catch (e) {
                toast(e instanceof Error ? e.message : String(e));
              }
            })();
          }}
        />
      )}
    </div>
  );
}
