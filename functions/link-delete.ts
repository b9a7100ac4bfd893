import { apiHandler } from '../shared/api/handler';
import { linkDelete } from '../shared/api/operations/link-delete';

export const handler = apiHandler(linkDelete);
