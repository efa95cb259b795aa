import { useT } from '../../i18n/I18nProvider';
import { Icon } from '../../ui/Icon';
import { fileFields } from './common';
import type { OptionPanelProps, ToolRequest } from './types';
import '../sizeAndSecurity.css';

/**
 * A file that needs a password was opened with it in the file list; one with only an owner password
 * (restrictions) opens without one. A file with neither has nothing to unlock.
 */
export function UnlockPanel({ files, layout }: OptionPanelProps) {
  const t = useT();
  const file = files[0];
  const request: ToolRequest = file?.info.encrypted ? { ok: true, body: fileFields(file) } : { ok: false };
  let options = null;
  if (file && !file.info.encrypted) {
    options = (
      <p className="notice notice-warn" role="alert" data-testid="not-protected">
        <Icon name="alert" size={18} /> {t('unlock.notProtected')}
      </p>
    );
  } else if (file) {
    options = (
      <p className="notice" data-testid="unlock-help">
        <Icon name="unlock" size={18} /> {file.password ? t('unlock.withPassword') : t('unlock.ownerOnly')}
      </p>
    );
  }
  return layout({ options, request });
}
