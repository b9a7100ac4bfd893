import { adminHandler } from '../shared/admin/handler';
import { linksFind } from '../shared/admin/links';
import { adminServices } from '../shared/admin/services';
import { apiCore } from '../shared/api-core';

const rt = apiCore();

export const handler = adminHandler(linksFind, rt, adminServices(rt));
