import { apiHandler } from '../shared/api/handler';
import { messageGetSmsStatus } from '../shared/api/operations/message-get-sms-status';
import { apiCore } from '../shared/api-core';

const rt = apiCore();

export const handler = apiHandler(messageGetSmsStatus, { messages: rt.messageStore }, rt);
