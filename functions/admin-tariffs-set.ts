import { adminHandler } from '../shared/admin/handler';
import { adminServices } from '../shared/admin/services';
import { tariffsSet } from '../shared/admin/signatures';
import { apiCore } from '../shared/api-core';

const rt = apiCore();

export const handler = adminHandler(tariffsSet, rt, adminServices(rt));
