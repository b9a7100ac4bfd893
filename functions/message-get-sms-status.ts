import { apiHandler } from '../shared/api/handler';
import { messageGetSmsStatus } from '../shared/api/operations/message-get-sms-status';

export const handler = apiHandler(messageGetSmsStatus);
