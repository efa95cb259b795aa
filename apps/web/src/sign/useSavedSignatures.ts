// The account's saved signatures (file/sign): listed once signed in, none for a visitor.
import { useEffect, useState } from 'react';
import { deleteSignature, listSignatures, saveSignature } from '../api/sign';
import type { PlaceableSignature } from './marks';
import type { SignatureImage } from './signatureImage';
import type { SavedSignature } from '@quire/contracts';

const placeable = (s: SavedSignature): PlaceableSignature => ({
  key: `saved-${s.id}`,
  savedId: s.id,
  image: { kind: s.kind, png: s.image, width: s.width, height: s.height },
});

export function useSavedSignatures(signedIn: boolean, onError: (e: unknown) => void) {
  const [saved, setSaved] = useState<PlaceableSignature[]>([]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: listed again only when the account changes
  useEffect(() => {
    if (!signedIn) {
      setSaved([]);
      return;
    }
    let current = true;
    listSignatures().then(
      (list) => current && setSaved(list.map(placeable)),
      (e: unknown) => current && onError(e),
    );
    return () => {
      current = false;
    };
  }, [signedIn]);

  /** Saves a new signature; the saved one, or the error. */
  const add = async (image: SignatureImage): Promise<PlaceableSignature> => {
    const made = placeable(await saveSignature({ kind: image.kind, image: image.png }));
    setSaved((list) => [made, ...list]);
    return made;
  };
  const remove = async (id: string) => {
    await deleteSignature(id);
    setSaved((list) => list.filter((s) => s.savedId !== id));
  };
  return { saved, add, remove };
}
