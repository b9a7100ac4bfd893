import { adminHandler } from '../shared/admin/handler';
import { keysList } from '../shared/admin/keys';
import { adminServices } from '../shared/admin/services';
import { apiCore } from '../shared/api-core';

const rt = apiCore();

export const handler = adminHandler(keysList, rt, adminServices(rt));
