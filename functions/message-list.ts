import { apiHandler } from '../shared/api/handler';
import { messageList } from '../shared/api/operations/message-list';

export const handler = apiHandler(messageList);
