import { apiHandler } from '../shared/api/handler';
import { linkGet } from '../shared/api/operations/link-get';

export const handler = apiHandler(linkGet);
