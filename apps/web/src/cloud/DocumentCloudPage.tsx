// The document cloud: an account's folders and files, kept until deleted. The view (My files,
// Starred, Recent) and the open folder are in the address, so Back, a reload and a link from
// elsewhere (a saved result, the personal centre) land on them.
import { ErrorCode, ShareFileType, type CloudCapacity, type CloudListing as Listing } from '@quire/contracts';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { useSession } from '../account/session';
import {
  addUpload,
  cloudDownloadUrl,
  createFolder,
  deleteItems,
  downloadZip,
  getCapacity,
  listFolder,
  listRecent,
  listStarred,
  moveItems,
  removeFromRecent,
  renameFile,
  renameFolder,
  setStarred,
  type CloudSelection,
  type CloudSort,
  type FolderId,
  type SortOrder,
} from '../api/cloud';
import { ApiError } from '../api/client';
import { getServerConfig } from '../api/files';
import { uploadFile } from '../api/upload';
import { useI18n, useT } from '../i18n/I18nProvider';
import { ShareDialog } from '../share/ShareDialog';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { saveBlob, startDownload } from '../ui/download';
import { Icon } from '../ui/Icon';
import { ProgressBar } from '../ui/ProgressBar';
import { useToast } from '../ui/Toast';
import { useDocumentTitle } from '../ui/useDocumentTitle';
import { useFileDrop } from '../ui/useFileDrop';
import { CapacityBar } from './CapacityBar';
import { Breadcrumb, CloudSpaceTip, FolderPicker, NameDialog, useConflictQuestion } from './CloudDialogs';
import { CloudGrid, CloudTable, type EntryAction } from './CloudListing';
import {
  cloudQuery,
  entriesOf,
  entryKey,
  entryName,
  keptSelection,
  matchesSearch,
  selectionOf,
  sortEntries,
  toggled,
  withConflictChoice,
  type CloudEntry,
  type CloudView,
} from './cloudModel';
import './cloud.css';

const views: CloudView[] = ['files', 'starred', 'recent'];

const LAYOUT_KEY = 'quire.cloud.layout';
type Layout = 'list' | 'grid';

/** The list or grid chosen last time in this browser. */
function savedLayout(): Layout {
  try {
    return localStorage.getItem(LAYOUT_KEY) === 'grid' ? 'grid' : 'list';
  } catch {
    return 'list'; // storage switched off
  }
}

function saveLayout(layout: Layout) {
  try {
    localStorage.setItem(LAYOUT_KEY, layout);
  } catch {
    // Storage switched off: the choice lasts as long as the page.
  }
}

export function DocumentCloudPage() {
  const t = useT();
  const session = useSession();
  useDocumentTitle(t('cloud.title'));
  const { status, requireSignIn } = session;
  // A visitor is asked to sign in at once; signed in, the dialog closes on this same page.
  useEffect(() => {
    if (status === 'signedOut') void requireSignIn({ kind: 'cloud' });
  }, [status, requireSignIn]);
  return (
    <div className="page cloud-page">
      {status === 'loading' ? null : session.user ? (
        <CloudBrowser />
      ) : (
        <section className="card cloud-signed-out" data-testid="cloud-signed-out">
          <Icon name="cloud" size={48} />
          <h1>{t('cloud.title')}</h1>
          <p>{t('cloud.signInToUse')}</p>
          <button type="button" className="button button-primary" onClick={() => void requireSignIn({ kind: 'cloud' })}>
            {t('account.signIn')}
          </button>
        </section>
      )}
    </div>
  );
}

type Dialog =
  | { kind: 'newFolder' }
  | { kind: 'rename'; entry: CloudEntry }
  | { kind: 'delete'; entries: CloudEntry[] }
  | { kind: 'move'; entries: CloudEntry[] }
  | { kind: 'share'; file: Extract<CloudEntry, { kind: 'file' }>['file'] }
  | { kind: 'spaceTip' };

interface Upload {
  id: string;
  name: string;
  percent: number;
}

function CloudBrowser() {
  const t = useT();
  const toast = useToast();
  const { localePath } = useI18n();
  const [params, setParams] = useSearchParams();
  const view: CloudView = views.find((v) => v === params.get('view')) ?? 'files';
  const folderId: FolderId = view === 'files' ? params.get('folder') : null;

  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  // The server is asked once typing pauses, not at every key.
  useEffect(() => {
    const timer = setTimeout(() => setSearch(searchText.trim()), 250);
    return () => clearTimeout(timer);
  }, [searchText]);
  const [sort, setSort] = useState<CloudSort>('updated');
  const [order, setOrder] = useState<SortOrder>('desc');
  const [layout, setLayout] = useState(savedLayout);
  useEffect(() => saveLayout(layout), [layout]);

  const [listing, setListing] = useState<Listing | null>(null);
  const [loading, setLoading] = useState(true);
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const [capacity, setCapacity] = useState<CloudCapacity | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const conflict = useConflictQuestion();
  const input = useRef<HTMLInputElement>(null);

  /** A failed call: the full cloud's tip for 41003, the catalogue's message otherwise. */
  const fail = useCallback(
    (e: unknown) => {
      if (e instanceof ApiError && e.code === ErrorCode.CloudFull) setDialog({ kind: 'spaceTip' });
      else toast(e instanceof Error ? e.message : String(e));
    },
    [toast],
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: version is the trigger of a reload
  useEffect(() => {
    let current = true;
    setLoading(true);
    const request: Promise<Listing> =
      view === 'files'
        ? listFolder({ folder_id: folderId, sort: 'updated', order: 'desc', ...(search && { search }) })
        : (view === 'starred' ? listStarred() : listRecent()).then((files) => ({ folders: [], files, path: [] }));
    request
      .then(
        (answer) => current && setListing(answer),
        (e: unknown) => {
          if (!current) return;
          setListing({ folders: [], files: [], path: [] });
          fail(e);
          // A folder that is gone (deleted elsewhere, an old link): the top of the cloud instead.
          if (folderId && e instanceof ApiError && e.code === ErrorCode.NoData) setParams(cloudQuery(null), { replace: true });
        },
      )
      .finally(() => current && setLoading(false));
    getCapacity().then(
      (c) => current && setCapacity(c),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [view, folderId, search, version, fail, setParams]);

  const entries = useMemo(() => {
    if (!listing) return [];
    // Starred and Recent are searched here; My files by the server, over the whole cloud.
    const files = view === 'files' ? listing.files : listing.files.filter((f) => matchesSearch(f.name, search));
    return sortEntries(entriesOf(listing.folders, files), sort, order);
  }, [listing, view, search, sort, order]);
  useEffect(() => setSelected((s) => keptSelection(s, entries)), [entries]);
  const chosen = entries.filter((e) => selected.has(entryKey(e)));

  const go = (next: FolderId, nextView: CloudView = 'files') => {
    setSearchText('');
    setSearch('');
    setSelected(new Set());
    setParams(cloudQuery(next, nextView));
  };

  const run = async (work: () => Promise<unknown>, done?: string) => {
    try {
      await work();
      if (done) toast(done, { kind: 'success' });
    } catch (e) {
      fail(e);
    } finally {
      reload();
    }
  };

  const uploadOne = async (file: File) => {
    const id = crypto.randomUUID();
    const progress = (percent: number) => setUploads((list) => list.map((u) => (u.id === id ? { ...u, percent } : u)));
    setUploads((list) => [...list, { id, name: file.name, percent: 0 }]);
    try {
      const config = await getServerConfig();
      const info = await uploadFile(file, {
        chunkThreshold: config.chunk_threshold,
        onProgress: (done, total) => progress(Math.min(99, Math.floor((done / Math.max(total, 1)) * 100))),
      });
      await withConflictChoice(file.name, (onConflict) => addUpload(info.file_id, folderId, onConflict), conflict.ask);
      reload();
    } finally {
      setUploads((list) => list.filter((u) => u.id !== id));
    }
  };
  // One after another: a name conflict asks about one file at a time.
  const uploadAll = async (files: readonly File[]) => {
    for (const file of files) {
      try {
        await uploadOne(file);
      } catch (e) {
        fail(e);
        if (e instanceof ApiError && e.code === ErrorCode.CloudFull) break;
      }
    }
  };
  const drop = useFileDrop((files) => void uploadAll(files));

  const downloadSelection = async (selection: CloudSelection) => {
    try {
      saveBlob(await downloadZip(selection), `${t('cloud.zipName')}.zip`);
    } catch (e) {
      fail(e);
    }
  };

  const openEntry = (entry: CloudEntry) => {
    if (entry.kind === 'folder') go(entry.folder.folder_id);
    else window.open(localePath(`/preview?cloud_file_id=${encodeURIComponent(entry.file.file_id)}`), '_blank', 'noopener');
  };

  const actionsOf = (entry: CloudEntry): EntryAction[] => {
    const common: EntryAction[] = [
      { id: 'rename', label: t('cloud.rename'), icon: 'edit', run: () => setDialog({ kind: 'rename', entry }) },
      { id: 'move', label: t('cloud.move'), icon: 'folderMove', run: () => setDialog({ kind: 'move', entries: [entry] }) },
      { id: 'delete', label: t('cloud.delete'), icon: 'trash', danger: true, run: () => setDialog({ kind: 'delete', entries: [entry] }) },
    ];
    if (entry.kind === 'folder') return [{ id: 'open', label: t('cloud.open'), icon: 'folder', run: () => openEntry(entry) }, ...common];
    const file = entry.file;
    const fileActions: EntryAction[] = [
      { id: 'download', label: t('cloud.download'), icon: 'download', run: () => startDownload(cloudDownloadUrl(file.file_id), file.name) },
      { id: 'share', label: t('result.share'), icon: 'share', run: () => setDialog({ kind: 'share', file }) },
      {
        id: 'star',
        label: file.starred ? t('cloud.unstarAction') : t('cloud.starAction'),
        icon: 'star',
        run: () => void run(() => setStarred(file.file_id, !file.starred)),
      },
    ];
    if (view === 'recent') {
      fileActions.push({
        id: 'remove-recent',
        label: t('cloud.removeFromRecent'),
        icon: 'clock',
        run: () => void run(() => removeFromRecent([file.file_id])),
      });
    }
    return [...fileActions, ...common];
  };

  const selectionActions: EntryAction[] = [
    {
      id: 'download',
      label: t('cloud.download'),
      icon: 'download',
      // One file comes as itself; more, or a folder, as a zip.
      run: () => {
        const only = chosen[0]!;
        if (chosen.length === 1 && only.kind === 'file') startDownload(cloudDownloadUrl(only.file.file_id), only.file.name);
        else void downloadSelection(selectionOf(entries, selected));
      },
    },
    { id: 'move', label: t('cloud.move'), icon: 'folderMove', run: () => setDialog({ kind: 'move', entries: chosen }) },
    { id: 'delete', label: t('cloud.delete'), icon: 'trash', danger: true, run: () => setDialog({ kind: 'delete', entries: chosen }) },
  ];

  const emptyText =
    search !== ''
      ? t('cloud.noMatches', { search })
      : view === 'starred'
        ? t('cloud.emptyStarred')
        : view === 'recent'
          ? t('cloud.emptyRecent')
          : folderId
            ? t('cloud.emptyFolder')
            : t('cloud.emptyCloud');
  const listingProps = {
    entries,
    selected,
    onToggle: (key: string) => setSelected((s) => toggled(s, key)),
    onToggleAll: () => setSelected(chosen.length === entries.length ? new Set() : new Set(entries.map(entryKey))),
    onOpen: openEntry,
    onStar: (entry: Extract<CloudEntry, { kind: 'file' }>) => void run(() => setStarred(entry.file.file_id, !entry.file.starred)),
    actionsOf,
  };

  return (
    <div
      className={`cloud-browser ${drop.active ? 'drop-active' : ''}`}
      aria-busy={loading}
      data-testid="document-cloud"
      {...drop.dropProps}
    >
      <input
        ref={input}
        type="file"
        hidden
        multiple
        data-testid="cloud-file-input"
        onChange={(e) => {
          void uploadAll([...(e.target.files ?? [])]);
          e.target.value = '';
        }}
      />
      <header className="cloud-head">
        <h1>{t('cloud.title')}</h1>
        <div className="cloud-capacity">{capacity && <CapacityBar capacity={capacity} />}</div>
      </header>

      <nav className="cloud-views" aria-label={t('cloud.views')}>
        {views.map((v) => (
          <button
            key={v}
            type="button"
            className={`cloud-view ${v === view ? 'active' : ''}`}
            aria-current={v === view ? 'page' : undefined}
            data-testid={`view-${v}`}
            onClick={() => go(null, v)}
          >
            <Icon name={v === 'files' ? 'folder' : v === 'starred' ? 'star' : 'clock'} size={18} />
            {v === 'files' ? t('cloud.myFiles') : v === 'starred' ? t('cloud.starred') : t('cloud.recent')}
          </button>
        ))}
      </nav>

      <div className="cloud-toolbar">
        {view === 'files' && !search ? (
          <Breadcrumb path={listing?.path ?? []} onOpen={(id) => go(id)} />
        ) : (
          <h2 className="cloud-subtitle">
            {search ? t('cloud.searchResults') : view === 'starred' ? t('cloud.starred') : t('cloud.recent')}
          </h2>
        )}
        <div className="cloud-tools">
          <label className="cloud-search">
            <Icon name="search" size={18} />
            <input
              type="search"
              value={searchText}
              placeholder={t('cloud.searchPlaceholder')}
              aria-label={t('cloud.searchPlaceholder')}
              data-testid="cloud-search"
              onChange={(e) => setSearchText(e.target.value)}
            />
          </label>
          <label className="cloud-sort">
            <span className="visually-hidden">{t('cloud.sortBy')}</span>
            <select value={sort} data-testid="cloud-sort" onChange={(e) => setSort(e.target.value as CloudSort)}>
              <option value="name">{t('cloud.sortName')}</option>
              <option value="updated">{t('cloud.sortDate')}</option>
              <option value="size">{t('cloud.sortSize')}</option>
            </select>
          </label>
          <IconToggle
            label={order === 'asc' ? t('cloud.ascending') : t('cloud.descending')}
            testId="cloud-order"
            onClick={() => setOrder(order === 'asc' ? 'desc' : 'asc')}
          >
            <Icon name="sort" className={order === 'asc' ? 'flip' : ''} />
          </IconToggle>
          <IconToggle
            label={layout === 'list' ? t('cloud.gridView') : t('cloud.listView')}
            testId="cloud-layout"
            onClick={() => setLayout(layout === 'list' ? 'grid' : 'list')}
          >
            <Icon name={layout === 'list' ? 'grid' : 'list'} />
          </IconToggle>
          {view === 'files' && (
            <>
              <button
                type="button"
                className="button button-outline"
                data-testid="new-folder"
                aria-label={t('cloud.newFolder')}
                onClick={() => setDialog({ kind: 'newFolder' })}
              >
                <Icon name="folderPlus" size={18} /> <span className="button-text">{t('cloud.newFolder')}</span>
              </button>
              <button
                type="button"
                className="button button-primary"
                data-testid="cloud-upload"
                aria-label={t('cloud.upload')}
                onClick={() => input.current?.click()}
              >
                <Icon name="upload" size={18} /> <span className="button-text">{t('cloud.upload')}</span>
              </button>
            </>
          )}
        </div>
      </div>

      {chosen.length > 0 && (
        <div className="cloud-selection" data-testid="selection-bar">
          <strong>{t('cloud.selected', { count: chosen.length })}</strong>
          {selectionActions.map((action) => (
            <button
              key={action.id}
              type="button"
              className={`button button-small button-ghost ${action.danger ? 'danger' : ''}`}
              data-testid={`selection-${action.id}`}
              onClick={action.run}
            >
              <Icon name={action.icon} size={16} /> {action.label}
            </button>
          ))}
          <button type="button" className="icon-button" aria-label={t('cloud.clearSelection')} onClick={() => setSelected(new Set())}>
            <Icon name="close" size={18} />
          </button>
        </div>
      )}

      {uploads.length > 0 && (
        <ul className="cloud-uploads" data-testid="cloud-uploads">
          {uploads.map((u) => (
            <li key={u.id}>
              <span className="file-name">{u.name}</span>
              <ProgressBar percent={u.percent} label={t('file.uploading', { percent: u.percent })} testId="cloud-upload-progress" />
            </li>
          ))}
        </ul>
      )}

      {loading && !listing ? (
        <div className="cloud-loading" data-testid="cloud-loading">
          <div className="spinner" aria-hidden="true" />
          {t('cloud.loading')}
        </div>
      ) : entries.length === 0 ? (
        <div className="cloud-empty" data-testid="cloud-empty">
          <Icon name={view === 'starred' ? 'star' : view === 'recent' ? 'clock' : 'cloud'} size={48} />
          <p>{emptyText}</p>
          {view === 'files' && !search && (
            <>
              <button type="button" className="button button-primary" onClick={() => input.current?.click()}>
                <Icon name="upload" size={18} /> {t('cloud.upload')}
              </button>
              <span className="upload-or">{t('cloud.orDrop')}</span>
            </>
          )}
        </div>
      ) : layout === 'list' ? (
        <CloudTable {...listingProps} />
      ) : (
        <CloudGrid {...listingProps} />
      )}

      {dialog?.kind === 'newFolder' && (
        <NameDialog
          title={t('cloud.newFolder')}
          initialName=""
          submitLabel={t('cloud.create')}
          onClose={() => setDialog(null)}
          onSubmit={async (name) => {
            await createFolder(name, folderId);
            setDialog(null);
            reload();
          }}
        />
      )}
      {dialog?.kind === 'rename' && (
        <NameDialog
          title={t('cloud.renameTitle', { name: entryName(dialog.entry) })}
          initialName={entryName(dialog.entry)}
          submitLabel={t('cloud.rename')}
          onClose={() => setDialog(null)}
          onSubmit={async (name) => {
            const { entry } = dialog;
            if (entry.kind === 'folder') await renameFolder(entry.folder.folder_id, name);
            else await renameFile(entry.file.file_id, name);
            setDialog(null);
            reload();
          }}
        />
      )}
      {dialog?.kind === 'share' && (
        <ShareDialog
          shareKey={dialog.file.file_id}
          fileType={ShareFileType.File}
          fileName={dialog.file.name}
          fileSize={dialog.file.size}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmDialog
          title={t('cloud.deleteTitle', { count: dialog.entries.length })}
          message={
            dialog.entries.some((e) => e.kind === 'folder')
              ? t('cloud.deleteFolderText', { count: dialog.entries.length })
              : t('cloud.deleteText', { count: dialog.entries.length })
          }
          confirmLabel={t('cloud.delete')}
          cancelLabel={t('cloud.cancel')}
          onCancel={() => setDialog(null)}
          onConfirm={() => {
            const selection = selectionOf(dialog.entries, new Set(dialog.entries.map(entryKey)));
            setDialog(null);
            void run(() => deleteItems(selection), t('cloud.deleted', { count: dialog.entries.length }));
          }}
        />
      )}
      {dialog?.kind === 'move' && (
        <FolderPicker
          title={t('cloud.moveTitle', { count: dialog.entries.length })}
          confirmLabel={t('cloud.moveHere')}
          startAt={folderId}
          excluded={dialog.entries.flatMap((e) => (e.kind === 'folder' ? [e.folder.folder_id] : []))}
          onClose={() => setDialog(null)}
          onPick={(target) => {
            const selection = selectionOf(dialog.entries, new Set(dialog.entries.map(entryKey)));
            setDialog(null);
            void run(() => moveItems(selection, target), t('cloud.moved', { count: dialog.entries.length }));
          }}
        />
      )}
      {dialog?.kind === 'spaceTip' && <CloudSpaceTip onClose={() => setDialog(null)} />}
      {conflict.dialog}
    </div>
  );
}

/** A toolbar button of one icon that switches a setting; its label (also its tooltip) says what a click does. */
function IconToggle({ label, testId, onClick, children }: { label: string; testId: string; onClick(): void; children: ReactNode }) {
  return (
    <button type="button" className="icon-button" aria-label={label} title={label} data-testid={testId} onClick={onClick}>
      {children}
    </button>
  );
}
