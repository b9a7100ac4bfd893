import { adminHandler } from '../shared/admin/handler';
import { messagesGet } from '../shared/admin/messages';
import { adminServices } from '../shared/admin/services';
import { apiCore } from '../shared/api-core';

const rt = apiCore();

export const handler = adminHandler(messagesGet, rt, adminServices(rt));
