import { apiHandler } from '../shared/api/handler';
import { linkGetStats } from '../shared/api/operations/link-get-stats';
import { apiCore } from '../shared/api-core';

const rt = apiCore();

export const handler = apiHandler(linkGetStats, { stats: rt.stats }, rt);
