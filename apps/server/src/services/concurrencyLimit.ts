// Bounds how many of some costly jobs run at once; the rest wait their turn, in order.

/** A runner that lets at most `size` of the jobs given to it run at the same time. */
export function concurrencyLimit(size: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(job: () => Promise<T>): Promise<T> => {
    if (active < size) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await job();
    } finally {
      // The slot passes straight to the next in line, or is given back.
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}
