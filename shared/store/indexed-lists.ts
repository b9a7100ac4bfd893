import type { MessageLists } from '../domain/message-ports';
import type { Store } from './client';
import type { CountedWrites } from './counted-writes';
import { LinkLists, type ListPlan } from './link-lists';
import { type LinkLister, LinksRepository } from './links-repo';
import { IndexedMessageLists } from './message-lists';

/**
 * The list readers, wired in only where Link/List and Message/List are answered (their
 * functions, the local runtime, tools): the other functions' bundles do without them.
 */
export interface ListReaders {
  links?(store: Store, counted: CountedWrites): LinkLister;
  messages?(store: Store, counted: CountedWrites): MessageLists;
}

const messages = (store: Store, counted: CountedWrites) => new IndexedMessageLists(store, counted);

export const indexedLists: ListReaders = {
  links: (store, counted) => new LinkLists(store, counted),
  messages,
};

/** Message/List's reader alone: its function's bundle does without Link/List's planner. */
export const messageListReader: ListReaders = { messages };

/** Links with Link/List from the indexes; `plan` sets the planner's figures (tests). */
export class IndexedLinksRepository extends LinksRepository {
  constructor(store: Store, counted?: CountedWrites, plan?: ListPlan) {
    super(store, counted, (s, c) => new LinkLists(s, c, plan));
  }
}
