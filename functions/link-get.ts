import { apiHandler } from '../shared/api/handler';
import { linkGet } from '../shared/api/operations/link-get';
import { apiRuntime } from '../shared/api-runtime';

const rt = apiRuntime();

export const handler = apiHandler(linkGet, { links: rt.links }, rt);
