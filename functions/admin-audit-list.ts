import { auditList } from '../shared/admin/audit';
import { adminHandler } from '../shared/admin/handler';
import { adminServices } from '../shared/admin/services';
import { apiCore } from '../shared/api-core';

const rt = apiCore();

export const handler = adminHandler(auditList, adminServices(rt), adminServices(rt));
