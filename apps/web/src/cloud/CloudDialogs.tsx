// The document cloud's dialogs: a name to type, a name conflict to settle, a folder to choose, and
// the tip shown when the cloud is full.
import { CLOUD_NAME_MAX, type CloudCapacity, type CloudFolder } from '@quire/contracts';
import { useEffect, useState, type FormEvent } from 'react';
import { listAllFolders, getCapacity, receiveFreeSpace, type FolderId, type OnConflict } from '../api/cloud';
import { useT } from '../i18n/I18nProvider';
import { Icon } from '../ui/Icon';
import { BuyLink } from '../pricing/BuyLink';
import { Modal } from '../ui/Modal';
import { useToast } from '../ui/Toast';
import { CapacityBar } from './CapacityBar';
import { nameProblem, pathTo } from './cloudModel';
// The dialogs open on pages that do not load the cloud page (the editor's signature picture): their styles come with them.
import './cloud.css';

/** The message of a refused name, typed or answered by the server. */
export function useNameProblemText() {
  const t = useT();
  return (name: string): string | null => {
    switch (nameProblem(name)) {
      case 'empty':
        return t('cloud.nameRequired');
      case 'tooLong':
        return t('cloud.nameTooLong', { max: CLOUD_NAME_MAX });
      case 'separator':
        return t('cloud.nameSeparator');
      default:
        return null;
    }
  };
}

interface NameDialogProps {
  title: string;
  initialName: string;
  submitLabel: string;
  /** Saves the name; a refusal (4101, 4102) is shown under the field and the dialog stays open. */
  onSubmit(name: string): Promise<void>;
  onClose(): void;
}

/** A name for a new folder, or a new name for a file or folder. */
export function NameDialog({ title, initialName, submitLabel, onSubmit, onClose }: NameDialogProps) {
  const t = useT();
  const problemText = useNameProblemText();
  const [name, setName] = useState(initialName);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const problem = problemText(name);
    if (problem) return setError(problem);
    setBusy(true);
    try {
      await onSubmit(name.trim());
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setBusy(false);
    }
  };
  return (
    <Modal className="confirm-dialog cloud-dialog" labelledBy="name-dialog-title" testId="name-dialog" onClose={onClose}>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <h2 id="name-dialog-title">{title}</h2>
        <label className="field">
          <span className="field-label">{t('cloud.name')}</span>
          <input
            value={name}
            maxLength={CLOUD_NAME_MAX + 10}
            // biome-ignore lint/a11y/noAutofocus: the dialog is opened to type this one name
            autoFocus
            aria-invalid={error ? true : undefined}
            data-testid="name-input"
            onChange={(e) => {
              setName(e.target.value);
              setError(null);
            }}
          />
        </label>
        {error && (
          <p className="field-error" role="alert" data-testid="name-error">
            {error}
          </p>
        )}
        <div className="button-row">
          <button type="button" className="button button-ghost" onClick={onClose}>
            {t('cloud.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={busy} data-testid="name-submit">
            {submitLabel}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/**
 * Asks what to do with a file whose name the folder already holds: replace that file, or keep both
 * (the new one renamed). `ask` resolves with the choice, or null when the user cancels.
 */
export function useConflictQuestion() {
  const t = useT();
  const [question, setQuestion] = useState<{ name: string; answer(choice: OnConflict | null): void } | null>(null);
  const ask = (name: string) =>
    new Promise<OnConflict | null>((resolve) =>
      setQuestion({
        name,
        answer: (choice) => {
          setQuestion(null);
          resolve(choice);
        },
      }),
    );
  const dialog = question && (
    <Modal
      className="confirm-dialog cloud-dialog"
      labelledBy="conflict-title"
      testId="conflict-dialog"
      onClose={() => question.answer(null)}
    >
      <h2 id="conflict-title">{t('cloud.conflictTitle')}</h2>
      <p>{t('cloud.conflictText', { name: question.name })}</p>
      <div className="button-row">
        <button type="button" className="button button-ghost" data-testid="conflict-cancel" onClick={() => question.answer(null)}>
          {t('cloud.cancel')}
        </button>
        <button type="button" className="button button-outline" data-testid="conflict-rename" onClick={() => question.answer('rename')}>
          {t('cloud.keepBoth')}
        </button>
        <button type="button" className="button button-primary" data-testid="conflict-replace" onClick={() => question.answer('replace')}>
          {t('cloud.replace')}
        </button>
      </div>
    </Modal>
  );
  return { ask, dialog };
}

interface FolderPickerProps {
  title: string;
  confirmLabel: string;
  /** Where the picker opens. */
  startAt: FolderId;
  /** Folders that cannot be chosen nor entered (those being moved). */
  excluded?: readonly string[];
  onPick(folderId: FolderId): void;
  onClose(): void;
}

/** Chooses a folder by walking down from the top of the cloud. */
export function FolderPicker({ title, confirmLabel, startAt, excluded = [], onPick, onClose }: FolderPickerProps) {
  const t = useT();
  const [folders, setFolders] = useState<CloudFolder[] | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [at, setAt] = useState<FolderId>(startAt);
  useEffect(() => {
    listAllFolders().then(setFolders, (e: unknown) => setFailed(e instanceof Error ? e.message : String(e)));
  }, []);
  const children = (folders ?? [])
    .filter((f) => f.parent_id === at && !excluded.includes(f.folder_id))
    .sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true }));
  const path = folders ? pathTo(folders, at) : [];
  return (
    <Modal className="confirm-dialog cloud-dialog folder-picker" labelledBy="folder-picker-title" testId="folder-picker" onClose={onClose}>
      <h2 id="folder-picker-title">{title}</h2>
      <Breadcrumb path={path} onOpen={setAt} />
      <ul className="picker-list" data-testid="picker-folders">
        {failed && <li className="picker-empty">{failed}</li>}
        {!failed && folders === null && <li className="picker-empty">{t('cloud.loading')}</li>}
        {folders !== null && children.length === 0 && <li className="picker-empty">{t('cloud.noSubfolders')}</li>}
        {children.map((f) => (
          <PickerFolder key={f.folder_id} name={f.name} onOpen={() => setAt(f.folder_id)} />
        ))}
      </ul>
      <div className="button-row">
        <button type="button" className="button button-ghost" onClick={onClose}>
          {t('cloud.cancel')}
        </button>
        <button type="button" className="button button-primary" data-testid="picker-confirm" onClick={() => onPick(at)}>
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}

/** A folder in a picker's list: a click walks into it. */
export function PickerFolder({ name, onOpen }: { name: string; onOpen(): void }) {
  return (
    <li>
      <button type="button" className="picker-item" data-testid="picker-folder" onClick={onOpen}>
        <Icon name="folder" size={20} />
        <span className="file-name">{name}</span>
        <Icon name="chevronRight" size={16} />
      </button>
    </li>
  );
}

/** "My files › A › B": each step opens that folder. */
export function Breadcrumb({
  path,
  onOpen,
}: {
  path: readonly Pick<CloudFolder, 'folder_id' | 'name'>[];
  onOpen(folderId: FolderId): void;
}) {
  const t = useT();
  const steps = [{ folder_id: null as FolderId, name: t('cloud.myFiles') }, ...path];
  return (
    <nav className="cloud-breadcrumb" aria-label={t('cloud.folderPath')} data-testid="breadcrumb">
      {steps.map((step, i) => (
        <span key={step.folder_id ?? 'top'} className="crumb">
          {i > 0 && <Icon name="chevronRight" size={14} />}
          {i === steps.length - 1 ? (
            <strong aria-current="page">{step.name}</strong>
          ) : (
            <button type="button" className="link-button" onClick={() => onOpen(step.folder_id)}>
              {step.name}
            </button>
          )}
        </span>
      ))}
    </nav>
  );
}

/**
 * The cloud is full (41003): how full, and what can be done, as the server offers it: a capacity
 * under 10 GB receives the free 10 GB once (`expand`), one up to 100 GB links to buying more
 * (`purchase`); beyond that, only deleting helps.
 */
export function CloudSpaceTip({ onClose }: { onClose(): void }) {
  const t = useT();
  const [capacity, setCapacity] = useState<CloudCapacity | null>(null);
  useEffect(() => {
    getCapacity().then(setCapacity, () => undefined);
  }, []);
  const toast = useToast();
  const offer = capacity?.offer;
  const expand = async () => {
    try {
      setCapacity(await receiveFreeSpace());
      toast(t('cloud.spaceReceived'), { kind: 'success' });
    } catch (e) {
      toast(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <Modal className="confirm-dialog cloud-dialog" labelledBy="space-tip-title" testId="cloud-space-tip" onClose={onClose}>
      <h2 id="space-tip-title">{t('cloud.fullTitle')}</h2>
      <p>{t('cloud.fullText')}</p>
      {capacity && <CapacityBar capacity={capacity} />}
      <div className="button-row">
        <button type="button" className="button button-ghost" data-testid="space-tip-close" onClick={onClose}>
          {t('cloud.close')}
        </button>
        {offer === 'expand' && (
          <button type="button" className="button button-primary" data-testid="space-tip-expand" onClick={() => void expand()}>
            {t('cloud.expandSpace')}
          </button>
        )}
        {offer === 'purchase' && (
          <BuyLink className="button button-primary" testId="space-tip-purchase" onClick={onClose}>
            {t('cloud.buySpace')}
          </BuyLink>
        )}
      </div>
    </Modal>
  );
}
