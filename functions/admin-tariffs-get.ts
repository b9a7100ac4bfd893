import { adminHandler } from '../shared/admin/handler';
import { adminServices } from '../shared/admin/services';
import { tariffsGet } from '../shared/admin/signatures';
import { apiCore } from '../shared/api-core';

const rt = apiCore();

export const handler = adminHandler(tariffsGet, rt, adminServices(rt));
