import { adminHandler } from '../shared/admin/handler';
import { keysRevoke } from '../shared/admin/keys';
import { adminServices } from '../shared/admin/services';
import { apiCore } from '../shared/api-core';

const rt = apiCore();

export const handler = adminHandler(keysRevoke, rt, adminServices(rt));
