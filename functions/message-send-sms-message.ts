import { apiHandler } from '../shared/api/handler';
import { messageSendSmsMessage } from '../shared/api/operations/message-send-sms-message';
import { apiRuntime } from '../shared/api-runtime';

const rt = apiRuntime();

export const handler = apiHandler(messageSendSmsMessage, { sending: rt.sending }, rt);
