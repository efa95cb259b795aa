// What a file card or an upgrade dialog says when a limit of the plan refused something.
import { ErrorCode } from '@quire/contracts';
import { messageFor, type Upgrade } from '../api/client';
import { useT } from '../i18n/I18nProvider';

export function useRefusalMessage(): (refusal: Upgrade) => string {
  const t = useT();
  return ({ upgrade, limit, reason }) => {
    switch (upgrade) {
      case 'sizeUpgrade':
      case 'sizeVip':
      case 'AiSize':
      case 'chatLimit':
        return t('limits.fileTooLarge', { max: `${limit} MB` });
      case 'normalPageLimit':
        return t('limits.tooManyPages', { max: limit });
      case 'chatLimitPage':
      case 'AiPage':
        return t('limits.aiPages', { max: limit });
      case 'notBatchFuncFilesLimit':
        return t('limits.tooManyFiles', { max: limit });
      case 'OCRLimit':
        return t('limits.noOcr');
      // limit 0: no sharing in the plan; otherwise the longest share the plan has, short of permanent.
      case 'shareUpgrade':
        return limit === 0 ? t('limits.noShare') : t('limits.noPermanentShare');
      case 'detectorLimit':
        return reason ?? messageFor(ErrorCode.DetectorCharsLimit);
      // Tokens or questions used up: only the server knows which, and says so.
      default:
        return reason ?? messageFor(ErrorCode.NotEnoughTokens);
    }
  };
}
