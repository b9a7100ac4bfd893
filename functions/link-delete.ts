import { apiHandler } from '../shared/api/handler';
import { linkDelete } from '../shared/api/operations/link-delete';
import { apiRuntime } from '../shared/api-runtime';

const rt = apiRuntime();

export const handler = apiHandler(linkDelete, { links: rt.links }, rt);
