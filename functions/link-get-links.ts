import { apiHandler } from '../shared/api/handler';
import { linkGetLinks } from '../shared/api/operations/link-get-links';
import { apiRuntime } from '../shared/api-runtime';

const rt = apiRuntime();

export const handler = apiHandler(linkGetLinks, { messageQueries: rt.messageQueries, links: rt.links }, rt);
