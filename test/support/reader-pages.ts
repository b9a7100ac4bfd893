/** A list reader: its `page` answers a query or leaves it to the next way (undefined). */
interface Reader {
  page(...args: never[]): Promise<unknown>;
}

/**
 * How far one of a reader's own counters (`pages`, `commentTotals`, …) moved while `act`
 * ran, over every instance `act` made: the calls that reader answered, for tests that check
 * a path is taken. The reader's `page` (or the `method` another reader hands it to) still runs as it is.
 */
export async function pagesWhile<R extends Reader>(
  type: { prototype: R },
  counter: (reader: R) => number,
  act: () => Promise<void>,
  method: 'page' | 'pageOf' = 'page',
): Promise<number> {
  const prototype = type.prototype as unknown as Record<typeof method, (this: R, ...args: unknown[]) => Promise<unknown>>;
  const page = prototype[method];
  let moved = 0;
  const spy = jest.spyOn(prototype, method).mockImplementation(async function (this: R, ...args: unknown[]) {
    const before = counter(this);
    const answer = await page.apply(this, args);
    moved += counter(this) - before;
    return answer;
  });
  try {
    await act();
  } finally {
    spy.mockRestore();
  }
  return moved;
}

/** The answers of `list` to each query of `asked`, in order, and how many of them `type` answered (its `pages`). */
export async function answeredBy<R extends Reader & { pages: number }, Q, A>(
  type: { prototype: R },
  asked: Q[],
  list: (query: Q) => Promise<A>,
): Promise<{ answers: A[]; pages: number }> {
  const answers: A[] = [];
  const pages = await pagesWhile(
    type,
    (reader) => reader.pages,
    async () => {
      for (const query of asked) answers.push(await list(query));
    },
  );
  return { answers, pages };
}
