// "Add from cloud": walk the cloud's folders and choose files of the kinds asked for (a tool's
// inputs, or a signature's picture).
import { hasAcceptedExtension, type CloudFile, type CloudListing, type ToolDefinition } from '@quire/contracts';
import { useEffect, useState } from 'react';
import { listFolder, type FolderId } from '../api/cloud';
import { useT } from '../i18n/I18nProvider';
import { useSizes } from '../ui/useSizes';
import { Modal } from '../ui/Modal';
import { Breadcrumb, PickerFolder } from './CloudDialogs';
import { entriesOf, sortEntries } from './cloudModel';

interface CloudFilePickerProps {
  /** The files that can be chosen (by extension), and whether one or many. */
  takes: Pick<ToolDefinition, 'extFrom' | 'isSingleUpload'>;
  onPick(files: CloudFile[]): void;
  onClose(): void;
}

export function CloudFilePicker({ takes, onPick, onClose }: CloudFilePickerProps) {
  const sizes = useSizes();
  const t = useT();
  const [folderId, setFolderId] = useState<FolderId>(null);
  const [listing, setListing] = useState<CloudListing | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  // Chosen files stay chosen while the user walks to other folders.
  const [chosen, setChosen] = useState<Map<string, CloudFile>>(new Map());
  useEffect(() => {
    let current = true;
    setListing(null);
    listFolder({ folder_id: folderId, sort: 'name', order: 'asc' }).then(
      (answer) => current && setListing(answer),
      (e: unknown) => current && setFailed(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      current = false;
    };
  }, [folderId]);

  // A single-file choice holds one file: choosing another replaces it.
  const choose = (file: CloudFile) =>
    setChosen((map) => {
      const next = new Map(takes.isSingleUpload ? [] : map);
      if (map.has(file.file_id)) next.delete(file.file_id);
      else next.set(file.file_id, file);
      return next;
    });
  const entries = listing ? sortEntries(entriesOf(listing.folders, listing.files), 'name', 'asc') : [];

  return (
    <Modal
      className="confirm-dialog cloud-dialog cloud-file-picker"
      labelledBy="cloud-picker-title"
      testId="cloud-file-picker"
      onClose={onClose}
    >
      <h2 id="cloud-picker-title">{t('cloud.pickTitle')}</h2>
      <Breadcrumb path={listing?.path ?? []} onOpen={setFolderId} />
      <ul className="picker-list">
        {failed && <li className="picker-empty">{failed}</li>}
        {!failed && !listing && <li className="picker-empty">{t('cloud.loading')}</li>}
        {listing && entries.length === 0 && <li className="picker-empty">{t('cloud.emptyFolder')}</li>}
        {entries.map((entry) => {
          if (entry.kind === 'folder') {
            const { folder } = entry;
            return <PickerFolder key={folder.folder_id} name={folder.name} onOpen={() => setFolderId(folder.folder_id)} />;
          }
          const { file } = entry;
          const usable = hasAcceptedExtension(file.name, takes);
          return (
            <li key={file.file_id}>
              <label className={`picker-item ${usable ? '' : 'disabled'}`} data-testid="picker-file" data-name={file.name}>
                <input
                  type={takes.isSingleUpload ? 'radio' : 'checkbox'}
                  name="cloud-file"
                  checked={chosen.has(file.file_id)}
                  disabled={!usable}
                  onChange={() => choose(file)}
                />
                <span className="file-name">{file.name}</span>
                <span className="file-meta">{sizes.bytes(file.size)}</span>
              </label>
            </li>
          );
        })}
      </ul>
      <div className="button-row">
        <button type="button" className="button button-ghost" onClick={onClose}>
          {t('cloud.cancel')}
        </button>
        <button
          type="button"
          className="button button-primary"
          disabled={chosen.size === 0}
          data-testid="picker-add"
          onClick={() => onPick([...chosen.values()])}
        >
          {t('cloud.addChosen', { count: chosen.size })}
        </button>
      </div>
    </Modal>
  );
}
