import { useToast } from './Toast';

/** Copies text to the clipboard and says so; false when the browser refused (an insecure origin, a denial). */
export function useCopyText(): (text: string, said: { copied: string; refused: string }) => Promise<boolean> {
  const toast = useToast();
  return async (text, said) => {
    try {
      await navigator.clipboard.writeText(text);
      toast(said.copied, { kind: 'success' });
      return true;
    } catch {
      toast(said.refused);
      return false;
    }
  };
}
