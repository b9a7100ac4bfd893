import { apiHandler } from '../shared/api/handler';
import { messageList } from '../shared/api/operations/message-list';
import { apiCore } from '../shared/api-core';
import { indexedLists } from '../shared/store/indexed-lists';

const rt = apiCore({ lists: indexedLists });

export const handler = apiHandler(messageList, { messageQueries: rt.messageQueries }, rt);
