import { adminHandler } from '../shared/admin/handler';
import { adminServices } from '../shared/admin/services';
import { signaturesAdd } from '../shared/admin/signatures';
import { apiCore } from '../shared/api-core';

const rt = apiCore();

export const handler = adminHandler(signaturesAdd, rt, adminServices(rt));
