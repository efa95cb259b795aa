// A bounded number of engine runs at once over a list of work: OCR's page batches, page renders.

/**
 * Runs `work` on each item, at most `lanes` at a time, items taken in order as lanes come free.
 * After a failure no item is started; it is thrown once the runs under way have ended, so that
 * nothing still writes into a folder its caller is about to remove.
 */
export async function inLanes<T>(items: readonly T[], lanes: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const lane = async () => {
    for (let i = next++; i < items.length && !failed; i = next++) {
      try {
        await work(items[i]!, i);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  const ran = await Promise.allSettled(Array.from({ length: Math.min(Math.max(1, lanes), items.length) }, lane));
  const failure = ran.find((r) => r.status === 'rejected');
  if (failure) throw failure.reason;
}
