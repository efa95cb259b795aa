// A visitor's files and run on a tool page are its cookie's; signing in moves them to the account
// (file/bind, task/bind) before the page, now signed in, goes on with them.
import { useEffect, useRef } from 'react';
import { useSession } from '../account/session';
import { bindFiles } from '../api/files';
import { bindRun } from '../api/tasks';

export interface VisitorWork {
  fileIds: string[];
  /** The run shown, if any. */
  multiId: string | undefined;
}

/** While mounted, binds what `work()` names at the time to the account at each sign-in. */
export function useBindOnSignIn(work: () => VisitorWork) {
  const { onSignIn } = useSession();
  const current = useRef(work);
  current.current = work;
  useEffect(
    () =>
      onSignIn(async () => {
        const { fileIds, multiId } = current.current();
        await Promise.all([fileIds.length > 0 && bindFiles(fileIds), multiId && bindRun(multiId)]);
      }),
    [onSignIn],
  );
}
