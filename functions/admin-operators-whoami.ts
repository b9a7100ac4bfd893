import { adminHandler } from '../shared/admin/handler';
import { operatorsWhoami } from '../shared/admin/operators';
import { adminServices } from '../shared/admin/services';
import { apiCore } from '../shared/api-core';

const rt = apiCore();

export const handler = adminHandler(operatorsWhoami, rt, adminServices(rt));
