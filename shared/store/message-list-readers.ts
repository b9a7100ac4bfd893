import type { ListReaders } from './indexed-lists';
import { IndexedMessageLists } from './message-lists';

/** Message/List's reader alone, for the function that answers only it: its bundle does without Link/List's planner. */
export const messageListReaders: ListReaders = {
  messages: (store, counted) => new IndexedMessageLists(store, counted),
};
