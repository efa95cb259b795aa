// A folder's entries as a list (name, date, size) or as a grid of first-page thumbnails, each with
// a check box for selecting several, a star, and a menu of what can be done to it.
import { useCallback, useRef, useState } from 'react';
import { cloudThumbnailUrl } from '../api/cloud';
import { useI18n, useT } from '../i18n/I18nProvider';
import { useSizes } from '../ui/useSizes';
import { Icon, type IconName } from '../ui/Icon';
import { useDismiss } from '../ui/useDismiss';
import { entryKey, entryName, type CloudEntry } from './cloudModel';

/** One item of an entry's menu. */
export interface EntryAction {
  id: string;
  label: string;
  icon: IconName;
  run(): void;
  danger?: boolean;
}

export interface ListingProps {
  entries: readonly CloudEntry[];
  selected: ReadonlySet<string>;
  onToggle(key: string): void;
  onToggleAll(): void;
  onOpen(entry: CloudEntry): void;
  onStar(entry: Extract<CloudEntry, { kind: 'file' }>): void;
  actionsOf(entry: CloudEntry): EntryAction[];
}

const isPdf = (name: string) => /\.pdf$/i.test(name);

/** Date and time for the list's column; the day alone for the phone's line under the name. */
function useDateFormats() {
  const { locale } = useI18n();
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const day = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
  return { formatDate: (ms: number) => dateTime.format(ms), formatDay: (ms: number) => day.format(ms) };
}

export function CloudTable({ entries, selected, onToggle, onToggleAll, onOpen, onStar, actionsOf }: ListingProps) {
  const t = useT();
  const sizes = useSizes();
  const { formatDate, formatDay } = useDateFormats();
  const allSelected = entries.length > 0 && entries.every((e) => selected.has(entryKey(e)));
  return (
    <table className="cloud-table" data-testid="cloud-list">
      <thead>
        <tr>
          <th className="col-check">
            <input
              type="checkbox"
              checked={allSelected}
              aria-label={t('cloud.selectAll')}
              data-testid="select-all"
              onChange={onToggleAll}
            />
          </th>
          <th>{t('cloud.name')}</th>
          <th className="col-date">{t('cloud.modified')}</th>
          <th className="col-size">{t('cloud.size')}</th>
          <th className="col-actions">
            <span className="visually-hidden">{t('cloud.actions')}</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {entries.map((entry) => {
          const key = entryKey(entry);
          const name = entryName(entry);
          const updated = entry.kind === 'folder' ? entry.folder.updated_at : entry.file.updated_at;
          return (
            <tr key={key} className={selected.has(key) ? 'selected' : ''} data-testid="cloud-entry" data-kind={entry.kind} data-name={name}>
              <td className="col-check">
                <input
                  type="checkbox"
                  checked={selected.has(key)}
                  aria-label={t('cloud.select', { name })}
                  data-testid="entry-check"
                  onChange={() => onToggle(key)}
                />
              </td>
              <td className="col-name">
                <button type="button" className="entry-open" data-testid="entry-open" onClick={() => onOpen(entry)}>
                  <Icon
                    name={entry.kind === 'folder' ? 'folder' : isPdf(name) ? 'file' : 'image'}
                    className={`entry-icon entry-${entry.kind}`}
                  />
                  <span className="entry-name" title={name}>
                    {name}
                  </span>
                </button>
                <span className="entry-meta-phone">
                  {formatDay(updated)}
                  {entry.kind === 'file' && ` · ${sizes.bytes(entry.file.size)}`}
                </span>
              </td>
              <td className="col-date">{formatDate(updated)}</td>
              <td className="col-size">{entry.kind === 'file' ? sizes.bytes(entry.file.size) : '—'}</td>
              <td className="col-actions">
                <span className="entry-actions">
                  {entry.kind === 'file' && <StarButton entry={entry} onStar={onStar} />}
                  <EntryMenu name={name} actions={actionsOf(entry)} />
                </span>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

export function CloudGrid({ entries, selected, onToggle, onOpen, onStar, actionsOf }: ListingProps) {
  const t = useT();
  return (
    <ul className="cloud-grid" data-testid="cloud-grid">
      {entries.map((entry) => {
        const key = entryKey(entry);
        const name = entryName(entry);
        return (
          <li
            key={key}
            className={`cloud-card ${selected.has(key) ? 'selected' : ''}`}
            data-testid="cloud-entry"
            data-kind={entry.kind}
            data-name={name}
          >
            <button type="button" className="cloud-card-preview" tabIndex={-1} onClick={() => onOpen(entry)}>
              {entry.kind === 'folder' ? (
                <Icon name="folder" size={56} className="entry-folder" />
              ) : (
                <Thumbnail fileId={entry.file.file_id} name={name} />
              )}
            </button>
            <input
              type="checkbox"
              className="cloud-card-check"
              checked={selected.has(key)}
              aria-label={t('cloud.select', { name })}
              data-testid="entry-check"
              onChange={() => onToggle(key)}
            />
            <div className="cloud-card-foot">
              <button type="button" className="entry-open" data-testid="entry-open" onClick={() => onOpen(entry)}>
                <span className="entry-name" title={name}>
                  {name}
                </span>
              </button>
              {entry.kind === 'file' && <StarButton entry={entry} onStar={onStar} />}
              <EntryMenu name={name} actions={actionsOf(entry)} />
            </div>
          </li>
        );
      })}
    </ul>
  );
}

/** A PDF's first page, drawn by the server; other files, and a PDF it cannot draw, show an icon. */
function Thumbnail({ fileId, name }: { fileId: string; name: string }) {
  const [failed, setFailed] = useState(false);
  if (!isPdf(name) || failed) return <Icon name={isPdf(name) ? 'file' : 'image'} size={48} className="entry-icon" />;
  return <img src={cloudThumbnailUrl(fileId)} alt="" loading="lazy" data-testid="thumbnail" onError={() => setFailed(true)} />;
}

function StarButton({ entry, onStar }: { entry: Extract<CloudEntry, { kind: 'file' }>; onStar: ListingProps['onStar'] }) {
  const t = useT();
  const starred = entry.file.starred;
  return (
    <button
      type="button"
      className={`icon-button star-button ${starred ? 'starred' : ''}`}
      aria-pressed={starred}
      aria-label={starred ? t('cloud.unstar', { name: entry.file.name }) : t('cloud.star', { name: entry.file.name })}
      data-testid="star-button"
      onClick={() => onStar(entry)}
    >
      <Icon name="star" size={18} filled={starred} />
    </button>
  );
}

/** The ⋯ menu of one entry; a click outside or Escape closes it. */
function EntryMenu({ name, actions }: { name: string; actions: EntryAction[] }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const anchor = useRef<HTMLDivElement>(null);
  useDismiss(
    anchor,
    open,
    useCallback(() => setOpen(false), []),
  );
  return (
    <div ref={anchor} className="entry-menu-anchor">
      <button
        type="button"
        className="icon-button"
        aria-label={t('cloud.actionsOf', { name })}
        aria-expanded={open}
        data-testid="entry-menu"
        onClick={() => setOpen(!open)}
      >
        <Icon name="more" size={20} />
      </button>
      {open && (
        <div className="entry-menu" role="menu">
          {actions.map((action) => (
            <button
              key={action.id}
              type="button"
              role="menuitem"
              className={`entry-menu-item ${action.danger ? 'danger' : ''}`}
              data-testid={`action-${action.id}`}
              onClick={() => {
                setOpen(false);
                action.run();
              }}
            >
              <Icon name={action.icon} size={18} />
              {action.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
