import { campaignsGet } from '../shared/admin/campaigns';
import { adminHandler } from '../shared/admin/handler';
import { adminServices } from '../shared/admin/services';
import { apiCore } from '../shared/api-core';

const rt = apiCore();

export const handler = adminHandler(campaignsGet, rt, adminServices(rt));
