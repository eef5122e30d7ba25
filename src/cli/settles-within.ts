/** True when `work` settled within `ms`; false when it is left running. */
export async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, ms));
  });
  try {
    return await Promise.race([work.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Waits for `work`; when it is still running after `ms`, calls `late` once (and keeps waiting). */
export async function stopsBy(work: Promise<void>, ms: number, late: () => void): Promise<void> {
  const timer = setTimeout(late, Math.max(0, ms));
  try {
    await work;
  } finally {
    clearTimeout(timer);
  }
}
