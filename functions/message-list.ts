import { apiHandler } from '../shared/api/handler';
import { messageList } from '../shared/api/operations/message-list';
import { apiCore } from '../shared/api-core';
import { messageListReaders } from '../shared/store/message-list-readers';

const rt = apiCore({ lists: messageListReaders });

export const handler = apiHandler(messageList, { messageQueries: rt.messageQueries }, rt);
