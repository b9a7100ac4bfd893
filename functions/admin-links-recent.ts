import { adminHandler } from '../shared/admin/handler';
import { linksRecent } from '../shared/admin/links';
import { adminServices } from '../shared/admin/services';
import { apiCore } from '../shared/api-core';
import { indexedLists } from '../shared/store/indexed-lists';

const rt = apiCore({ lists: indexedLists });

export const handler = adminHandler(linksRecent, rt, adminServices(rt));
