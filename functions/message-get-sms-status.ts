import { apiHandler } from '../shared/api/handler';
import { messageGetSmsStatus } from '../shared/api/operations/message-get-sms-status';
import { apiRuntime } from '../shared/api-runtime';

const rt = apiRuntime();

export const handler = apiHandler(messageGetSmsStatus, { messages: rt.messageStore }, rt);
