import { apiHandler } from '../shared/api/handler';
import { linkGet } from '../shared/api/operations/link-get';
import { apiCore } from '../shared/api-core';

const rt = apiCore();

export const handler = apiHandler(linkGet, { links: rt.links }, rt);
