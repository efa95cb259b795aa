// Signatures as Sign PDF and the editor's signature tool both offer them: the account's saved ones,
// and new ones made in the signature dialog, kept for the account when asked.
import { useState } from 'react';
import { useSession } from '../account/session';
import { useToast } from '../ui/Toast';
import { newMarkId, type PlaceableSignature } from './marks';
import { SignatureDialog } from './SignatureDialog';
import type { SignatureImage } from './signatureImage';
import { useSavedSignatures } from './useSavedSignatures';

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** `onMade`: a new signature to use now; `kept` says whether the account saved it. */
export function useSignatureMaker(onMade: (signature: PlaceableSignature, kept: boolean) => void) {
  const { user } = useSession();
  const toast = useToast();
  const { saved, add, remove } = useSavedSignatures(!!user, (e) => toast(errorText(e)));
  const [creating, setCreating] = useState(false);

  const made = async (image: SignatureImage, keep: boolean) => {
    setCreating(false);
    const oneOff: PlaceableSignature = { key: newMarkId(), image };
    if (!keep) return onMade(oneOff, false);
    try {
      onMade(await add(image), true);
    } catch (e) {
      // Not kept (the account's limit, say): it is still used once.
      toast(errorText(e));
      onMade(oneOff, false);
    }
  };

  const dialog = creating && (
    <SignatureDialog hasAccount={!!user} onDone={(image, keep) => void made(image, keep)} onClose={() => setCreating(false)} />
  );
  return { saved, remove, create: () => setCreating(true), dialog };
}
