import { adminHandler } from '../shared/admin/handler';
import { linksBlock } from '../shared/admin/links';
import { adminServices } from '../shared/admin/services';
import { apiCore } from '../shared/api-core';

const rt = apiCore();

export const handler = adminHandler(linksBlock, rt, adminServices(rt));
