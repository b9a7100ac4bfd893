import { apiHandler } from '../shared/api/handler';
import { linkUpdate } from '../shared/api/operations/link-update';

export const handler = apiHandler(linkUpdate);
