import type { ServerContext } from '../../context';

/** Moves a building file to a status with a message; counts too when given (a new step starts its counts afresh). */
export async function setFileStatus(
  ctx: ServerContext,
  fileId: string,
  status: number,
  statusMessage: string,
  counts?: { processed: number; total: number },
): Promise<void> {
  await ctx.db
    .updateTable('building_files')
    .set({
      status,
      statusMessage,
      ...(counts === undefined ? {} : { elementProcessedCount: counts.processed, elementCount: counts.total }),
    })
    .where('id', '=', fileId)
    .execute();
}

/** How often progress is written at most: often enough for a status poll, rarely enough not to slow the step. */
const progressIntervalMs = 500;

/**
 * Progress of a step, written to the file's counts at most every half second. Counts only grow within a step
 * (decisions §3), so a late or out-of-order report never moves them back. A failed write is kept and thrown by `flush`.
 */
export function fileProgress(ctx: ServerContext, fileId: string): { report(processed: number, total: number): void; flush(): Promise<void> } {
  let processed = 0;
  let total = 0;
  let writtenAt = 0;
  let failure: unknown;
  let writing: Promise<void> = Promise.resolve();
  const write = (): void => {
    writtenAt = Date.now();
    const counts = { processed, total: Math.max(total, processed) };
    writing = writing.then(async () => {
      try {
        await ctx.db
          .updateTable('building_files')
          .set((eb) => ({
            elementProcessedCount: ctx.dialect.greatest(eb.ref('elementProcessedCount'), eb.val(counts.processed)),
            elementCount: ctx.dialect.greatest(eb.ref('elementCount'), eb.val(counts.total)),
          }))
          .where('id', '=', fileId)
          .execute();
      } catch (error) {
        failure ??= error;
      }
    });
  };
  return {
    report(nextProcessed, nextTotal) {
      processed = Math.max(processed, nextProcessed);
      total = Math.max(total, nextTotal);
      if (Date.now() - writtenAt >= progressIntervalMs) write();
    },
    async flush() {
      write();
      await writing;
      if (failure !== undefined) throw failure;
    },
  };
}
