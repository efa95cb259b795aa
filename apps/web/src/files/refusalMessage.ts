// What a file card says when a limit of the plan refused the file.
import { PERMANENT_SHARE_DAYS, type LimitRefusal } from '@quire/contracts';
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
      // The page's own refusal of a permanent share names its days; the server's of sharing, the day's allowance.
      case 'shareUpgrade':
        return limit === PERMANENT_SHARE_DAYS ? t('limits.noPermanentShare') : t('limits.noShare');
      default:
        return t('limits.aiLimit');
    }
  };
}
