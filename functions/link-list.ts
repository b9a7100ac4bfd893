import { apiHandler } from '../shared/api/handler';
import { linkList } from '../shared/api/operations/link-list';
import { apiRuntime } from '../shared/api-runtime';

const rt = apiRuntime();

export const handler = apiHandler(linkList, { links: rt.links }, rt);
