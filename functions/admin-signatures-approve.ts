import { adminHandler } from '../shared/admin/handler';
import { adminServices } from '../shared/admin/services';
import { signaturesApprove } from '../shared/admin/signatures';
import { apiCore } from '../shared/api-core';

const rt = apiCore();

export const handler = adminHandler(signaturesApprove, rt, adminServices(rt));
