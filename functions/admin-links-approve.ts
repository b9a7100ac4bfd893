import { adminHandler } from '../shared/admin/handler';
import { linksApprove } from '../shared/admin/links';
import { adminServices } from '../shared/admin/services';
import { apiCore } from '../shared/api-core';

const rt = apiCore();

export const handler = adminHandler(linksApprove, rt, adminServices(rt));
