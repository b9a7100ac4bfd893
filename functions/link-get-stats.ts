import { apiHandler } from '../shared/api/handler';
import { linkGetStats } from '../shared/api/operations/link-get-stats';

export const handler = apiHandler(linkGetStats);
