import { adminHandler } from '../shared/admin/handler';
import { adminServices } from '../shared/admin/services';
import { signaturesDefault } from '../shared/admin/signatures';
import { apiCore } from '../shared/api-core';

const rt = apiCore();

export const handler = adminHandler(signaturesDefault, rt, adminServices(rt));
