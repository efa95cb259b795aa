// A file's AI status followed until its analysis ends (success or failed), polled as the spec's
// AI status flow: init → uploading → analyses → success | failed.
import type { AiFileInfo } from '@quire/contracts';
import { useEffect, useState } from 'react';
import { analysisOf } from '../../api/aiChat';
import { ApiError, NETWORK_ERROR } from '../../api/client';
import { sleep } from '../../api/sleep';

const POLL_MS = 1000;

export type AnalysisState =
  | { phase: 'waiting'; info?: AiFileInfo }
  | { phase: 'ready'; info: AiFileInfo }
  | { phase: 'failed'; error: ApiError };

export function useAnalysis(fileId: string): AnalysisState {
  const [state, setState] = useState<AnalysisState>({ phase: 'waiting' });
  useEffect(() => {
    const stop = new AbortController();
    setState({ phase: 'waiting' });
    void (async () => {
      try {
        for (;;) {
          const info = await analysisOf(fileId);
          if (stop.signal.aborted) return;
          if (info.status === 'success') return setState({ phase: 'ready', info });
          if (info.status === 'failed') return setState({ phase: 'failed', error: new ApiError(info.error_code ?? NETWORK_ERROR) });
          setState({ phase: 'waiting', info });
          await sleep(POLL_MS, stop.signal);
        }
      } catch (e) {
        if (!stop.signal.aborted) setState({ phase: 'failed', error: e instanceof ApiError ? e : new ApiError(NETWORK_ERROR) });
      }
    })();
    return () => stop.abort();
  }, [fileId]);
  return state;
}
