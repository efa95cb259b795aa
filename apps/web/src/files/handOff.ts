// Files chosen on a landing page, held for the page it opens: the tool page (or the AI page) takes
// them when it starts, as if they had been chosen there. Kept in memory only: a reload forgets them.
import { useState } from 'react';
import { useLocation } from 'react-router';
import { splitLocalePrefix } from '../i18n/locales';

let handedOff: { appPath: string; files: File[] } | undefined;

/** Holds `files` for the page at `appPath` ("/app/png-to-pdf"), replacing any held before. */
export function handOffFiles(appPath: string, files: File[]) {
  handedOff = { appPath, files };
}

/** The files held for the page at `appPath`, once: taking them lets them go. */
export function takeHandedOffFiles(appPath: string): File[] {
  if (handedOff?.appPath !== appPath) return [];
  const { files } = handedOff;
  handedOff = undefined;
  return files;
}

/** The file handed off to the page being shown, taken when the page starts. */
export function useHandedOffFile(): File | undefined {
  const { pathname } = useLocation();
  const [file] = useState(() => takeHandedOffFiles(splitLocalePrefix(pathname).rest)[0]);
  return file;
}
