// The bar over an AI page's document: its name, a way to another PDF, and on a phone the tabs
// that stand for the columns side by side on a wider screen.
import { useI18n } from '../i18n/I18nProvider';
import { Icon } from '../ui/Icon';
import { Tabs } from '../ui/Tabs';

interface WorkspaceBarProps<T extends string> {
  fileName: string;
  onOtherFile(): void;
  panes: { id: T; label: string }[];
  pane: T;
  onPane(pane: T): void;
  testId: string;
}

export function WorkspaceBar<T extends string>({ fileName, onOtherFile, panes, pane, onPane, testId }: WorkspaceBarProps<T>) {
  const { t } = useI18n();
  return (
    <>
      <div className="chat-bar">
        <p className="chat-file-name" data-testid={`${testId}-file-name`}>
          <Icon name="file" size={18} />
          {fileName}
        </p>
        <button type="button" className="button button-small button-outline" onClick={onOtherFile} data-testid={`${testId}-other-file`}>
          {t('chatPdf.otherFile')}
        </button>
      </div>
      <div className="chat-phone-tabs">
        <Tabs<T> tabs={panes} current={pane} onChoose={onPane} testIdPrefix={`${testId}-pane-`} />
      </div>
    </>
  );
}
