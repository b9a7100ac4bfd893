import { apiHandler } from '../shared/api/handler';
import { linkUpdate } from '../shared/api/operations/link-update';
import { apiCore } from '../shared/api-core';

const rt = apiCore();

export const handler = apiHandler(linkUpdate, { links: rt.links }, rt);
