import { apiHandler } from '../shared/api/handler';
import { linkCreate } from '../shared/api/operations/link-create';

export const handler = apiHandler(linkCreate);
