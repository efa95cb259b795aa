// Notes on the document's pages: listed by page (each jumps to its page), added, deleted.
import { useEffect, useState, type FormEvent } from 'react';
import { addNote, deleteNote, notesOf, type AiNote } from '../../api/aiChat';
import { useI18n } from '../../i18n/I18nProvider';
import { Icon } from '../../ui/Icon';
import { useToast } from '../../ui/Toast';

const NOTE_MAX_CHARS = 5000;

export function NotesPanel({ fileId, ready, onJump }: { fileId: string; ready: boolean; onJump(page: number): void }) {
  const { t } = useI18n();
  const toast = useToast();
  const [notes, setNotes] = useState<AiNote[]>([]);
  const [page, setPage] = useState(1);
  const [text, setText] = useState('');

  useEffect(() => {
    if (ready) notesOf(fileId).then(setNotes, (e: Error) => toast(e.message));
  }, [fileId, ready, toast]);

  const add = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const note = await addNote(fileId, page, text.trim());
      setNotes((shown) => [...shown, note].sort((a, b) => a.page - b.page || a.created_at - b.created_at));
      setText('');
    } catch (err) {
      toast(err instanceof Error ? err.message : String(err));
    }
  };
  const remove = async (note: AiNote) => {
    try {
      await deleteNote(note.note_id);
      setNotes((shown) => shown.filter((n) => n.note_id !== note.note_id));
    } catch (err) {
      toast(err instanceof Error ? err.message : String(err));
    }
  };

  return (
    <div className="chat-notes" data-testid="chat-notes">
      {notes.length === 0 ? (
        <p className="ai-hint">{t('chatPdf.noNotes')}</p>
      ) : (
        <ul className="chat-note-list">
          {notes.map((n) => (
            <li key={n.note_id} data-testid="chat-note">
              <button type="button" className="chat-cite" onClick={() => onJump(n.page)}>
                {t('chatPdf.pageN', { page: n.page })}
              </button>
              <p className="chat-note-text">{n.text}</p>
              <button
                type="button"
                className="icon-button"
                aria-label={t('chatPdf.deleteNote')}
                title={t('chatPdf.deleteNote')}
                onClick={() => void remove(n)}
                data-testid="chat-note-delete"
              >
                <Icon name="trash" size={16} />
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="chat-note-form" onSubmit={(e) => void add(e)}>
        <label className="chat-note-page">
          <span>{t('chatPdf.notePage')}</span>
          <input
            type="number"
            min={1}
            value={page}
            onChange={(e) => setPage(Math.max(1, Math.floor(Number(e.target.value)) || 1))}
            data-testid="chat-note-page"
          />
        </label>
        <textarea
          value={text}
          maxLength={NOTE_MAX_CHARS}
          rows={3}
          onChange={(e) => setText(e.target.value)}
          aria-label={t('chatPdf.noteText')}
          placeholder={t('chatPdf.notePlaceholder')}
          disabled={!ready}
          data-testid="chat-note-text"
        />
        <button type="submit" className="button button-primary button-small" disabled={!ready || !text.trim()} data-testid="chat-note-add">
          {t('chatPdf.addNote')}
        </button>
      </form>
    </div>
  );
}
