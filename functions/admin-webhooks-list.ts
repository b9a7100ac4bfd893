import { adminHandler } from '../shared/admin/handler';
import { adminServices } from '../shared/admin/services';
import { webhooksList } from '../shared/admin/webhooks';
import { runtime } from '../shared/runtime';

const rt = runtime();

export const handler = adminHandler(webhooksList, rt, adminServices(rt));
