// "Save to cloud" on a tool's result: the output is copied into a folder of the user's choice.
import { ErrorCode } from '@quire/contracts';
import { useState } from 'react';
import { saveTaskOutput, type FolderId } from '../api/cloud';
import { ApiError } from '../api/client';
import type { TaskOutputLink } from '../api/tasks';
import { useI18n } from '../i18n/I18nProvider';
import { Icon } from '../ui/Icon';
import { useToast } from '../ui/Toast';
import { CloudSpaceTip, FolderPicker, useConflictQuestion } from './CloudDialogs';
import { cloudPath, withConflictChoice } from './cloudModel';
import './cloud.css';

/** `labelled`: the button says what it does, where the row has room for it (the download page). */
export function SaveToCloud({ output, labelled = false }: { output: TaskOutputLink; labelled?: boolean }) {
  const { t, localePath } = useI18n();
  const toast = useToast();
  const conflict = useConflictQuestion();
  const [step, setStep] = useState<'idle' | 'picking' | 'saving' | 'full'>('idle');

  const save = async (folderId: FolderId) => {
    setStep('saving');
    try {
      const saved = await withConflictChoice(output.name, (onConflict) => saveTaskOutput(output, folderId, onConflict), conflict.ask);
      setStep('idle');
      if (saved) {
        toast(t('cloud.savedAs', { name: saved.name }), {
          kind: 'success',
          link: { label: t('cloud.openFolder'), to: localePath(cloudPath(folderId)) },
        });
      }
    } catch (e) {
      if (e instanceof ApiError && e.code === ErrorCode.CloudFull) return setStep('full');
      setStep('idle');
      toast(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <>
      {/* An icon beside Download: the row keeps its room for the output's name. */}
      <button
        type="button"
        className="button button-outline save-to-cloud"
        disabled={step === 'saving'}
        aria-label={t('cloud.saveToCloud')}
        title={t('cloud.saveToCloud')}
        data-testid="save-to-cloud"
        onClick={() => setStep('picking')}
      >
        <Icon name="cloudSave" size={20} />
        {labelled && t('cloud.saveToCloud')}
      </button>
      {step === 'picking' && (
        <FolderPicker
          title={t('cloud.saveTitle', { name: output.name })}
          confirmLabel={t('cloud.saveHere')}
          startAt={null}
          onClose={() => setStep('idle')}
          onPick={(folderId) => void save(folderId)}
        />
      )}
      {step === 'full' && <CloudSpaceTip onClose={() => setStep('idle')} />}
      {conflict.dialog}
    </>
  );
}
