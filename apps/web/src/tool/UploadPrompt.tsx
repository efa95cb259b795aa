// The upload zone's call to action: the button that opens the file chooser and the line saying
// files may be dropped, worded for what the tool takes (one PDF, PDFs, images or any files).
import { imageProcessExtensions, type ToolDefinition } from '@quire/contracts';
import { useT } from '../i18n/I18nProvider';
import { Icon } from '../ui/Icon';

export function UploadPrompt({ tool, onPick }: { tool: Pick<ToolDefinition, 'extFrom' | 'isSingleUpload'>; onPick(): void }) {
  const t = useT();
  const takesPdf = tool.extFrom.includes('pdf');
  const onlyImages = tool.extFrom.every((ext) => (imageProcessExtensions as readonly string[]).includes(ext));
  const select = takesPdf
    ? tool.isSingleUpload
      ? t('upload.selectFile')
      : t('upload.selectFiles')
    : onlyImages
      ? t('upload.selectImages')
      : t('upload.selectDocuments');
  const drop = takesPdf
    ? tool.isSingleUpload
      ? t('upload.dropOne')
      : t('upload.dropMany')
    : onlyImages
      ? t('upload.dropImages')
      : t('upload.dropDocuments');
  return (
    <>
      <button type="button" className="button button-primary button-xl" data-testid="select-files" onClick={onPick}>
        <Icon name="upload" /> {select}
      </button>
      <span className="upload-or">{drop}</span>
    </>
  );
}
