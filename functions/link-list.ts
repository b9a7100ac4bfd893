import { apiHandler } from '../shared/api/handler';
import { linkList } from '../shared/api/operations/link-list';

export const handler = apiHandler(linkList);
