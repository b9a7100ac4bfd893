import { apiHandler } from '../shared/api/handler';
import { linkGetLinks } from '../shared/api/operations/link-get-links';
import { apiCore } from '../shared/api-core';

const rt = apiCore();

export const handler = apiHandler(linkGetLinks, { messageQueries: rt.messageQueries, links: rt.links }, rt);
