import { adminHandler } from '../shared/admin/handler';
import { adminServices } from '../shared/admin/services';
import { webhooksRemove } from '../shared/admin/webhooks';
import { runtime } from '../shared/runtime';

const rt = runtime();

export const handler = adminHandler(webhooksRemove, rt, adminServices(rt));
