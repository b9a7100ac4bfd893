import { campaignsApprove } from '../shared/admin/campaigns';
import { adminHandler } from '../shared/admin/handler';
import { adminServices } from '../shared/admin/services';
import { apiRuntime } from '../shared/api-runtime';

const rt = apiRuntime();

export const handler = adminHandler(campaignsApprove, rt, adminServices(rt));
