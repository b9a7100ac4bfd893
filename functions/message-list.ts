import { apiHandler } from '../shared/api/handler';
import { messageList } from '../shared/api/operations/message-list';
import { apiRuntime } from '../shared/api-runtime';

const rt = apiRuntime();

export const handler = apiHandler(messageList, { messageQueries: rt.messageQueries }, rt);
