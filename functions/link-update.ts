import { apiHandler } from '../shared/api/handler';
import { linkUpdate } from '../shared/api/operations/link-update';
import { apiRuntime } from '../shared/api-runtime';

const rt = apiRuntime();

export const handler = apiHandler(linkUpdate, { links: rt.links }, rt);
