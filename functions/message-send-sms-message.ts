import { apiHandler } from '../shared/api/handler';
import { messageSendSmsMessage } from '../shared/api/operations/message-send-sms-message';

export const handler = apiHandler(messageSendSmsMessage);
