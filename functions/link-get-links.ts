import { apiHandler } from '../shared/api/handler';
import { linkGetLinks } from '../shared/api/operations/link-get-links';

export const handler = apiHandler(linkGetLinks);
