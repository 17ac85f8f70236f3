// Cursor iteration for the list operations: every list answers `{ data, has_more, next_cursor }` and takes
// `cursor`, so one generic walk serves them all, typed by the client method it is given.

interface CursorPage {
  has_more?: boolean;
  next_cursor?: string | null;
}

type ListCall<A, P> = (args: A) => Promise<P>;
/** The list's arguments without `cursor`; optional when the list needs none. */
type FirstArgs<A> = {} extends A ? [args?: Omit<A, 'cursor'>] : [args: Omit<A, 'cursor'>];
type Item<P> = P extends { data: readonly (infer T)[] } ? T : never;

/**
 * Every page of a list, first to last, following `next_cursor`: `for await (const page of pages(client.list_leads, { limit: 100 }))`.
 * Each page is fetched when the loop asks for it; a failed page throws its ApiProblemError from the loop.
 */
export async function* pages<A extends { cursor?: string }, P extends CursorPage>(
  list: ListCall<A, P>,
  ...[args]: FirstArgs<A>
): AsyncGenerator<P, void, undefined> {
  let cursor: string | undefined;
  do {
    const page = await list({ ...args, ...(cursor === undefined ? {} : { cursor }) } as A);
    yield page;
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
}

/** Every item of a list across its pages: `for await (const lead of items(client.list_leads))`. */
export async function* items<A extends { cursor?: string }, P extends CursorPage & { data: readonly unknown[] }>(
  list: ListCall<A, P>,
  ...rest: FirstArgs<A>
): AsyncGenerator<Item<P>, void, undefined> {
  for await (const page of pages(list, ...rest)) yield* page.data as readonly Item<P>[];
}
