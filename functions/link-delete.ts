import { apiHandler } from '../shared/api/handler';
import { linkDelete } from '../shared/api/operations/link-delete';
import { apiCore } from '../shared/api-core';

const rt = apiCore();

export const handler = apiHandler(linkDelete, { links: rt.links }, rt);
