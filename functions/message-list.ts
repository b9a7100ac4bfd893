import { apiHandler } from '../shared/api/handler';
import { messageList } from '../shared/api/operations/message-list';
import { apiCore } from '../shared/api-core';
import { messageListReader } from '../shared/store/indexed-lists';

const rt = apiCore({ lists: messageListReader });

export const handler = apiHandler(messageList, { messageQueries: rt.messageQueries }, rt);
