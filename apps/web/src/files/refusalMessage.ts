// What a file card says when a limit of the plan refused the file.
import type { LimitRefusal } from '@quire/contracts';
import { useT } from '../i18n/I18nProvider';

export function useRefusalMessage(): (refusal: LimitRefusal) => string {
  const t = useT();
  return ({ upgrade, limit }) => {
    switch (upgrade) {
      case 'sizeUpgrade':
      case 'sizeVip':
        return t('limits.fileTooLarge', { max: `${limit} MB` });
      case 'normalPageLimit':
        return t('limits.tooManyPages', { max: limit });
      case 'notBatchFuncFilesLimit':
        return t('limits.tooManyFiles', { max: limit });
      case 'OCRLimit':
        return t('limits.noOcr');
      // limit 0: no sharing in the plan; otherwise the longest share the plan has, short of permanent.
      case 'shareUpgrade':
        return limit === 0 ? t('limits.noShare') : t('limits.noPermanentShare');
      default:
        return t('limits.aiLimit');
    }
  };
}
