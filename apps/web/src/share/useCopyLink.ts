import { useT } from '../i18n/I18nProvider';
import { useCopyText } from '../ui/useCopyText';

/** Copies a share's link to the clipboard and says so; false when the browser refused. */
export function useCopyLink(): (url: string) => Promise<boolean> {
  const t = useT();
  const copyText = useCopyText();
  return (url) => copyText(url, { copied: t('share.linkCopied'), refused: t('share.copyByHand') });
}
