import { useT } from '../i18n/I18nProvider';
import { useToast } from '../ui/Toast';

/** Copies a share's link to the clipboard and says so; false when the browser refused (an insecure origin, a denial). */
export function useCopyLink(): (url: string) => Promise<boolean> {
  const t = useT();
  const toast = useToast();
  return async (url) => {
    try {
      await navigator.clipboard.writeText(url);
      toast(t('share.linkCopied'), { kind: 'success' });
      return true;
    } catch {
      toast(t('share.copyByHand'));
      return false;
    }
  };
}
