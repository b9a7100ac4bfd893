import { apiHandler } from '../shared/api/handler';
import { linkGetStats } from '../shared/api/operations/link-get-stats';
import { apiRuntime } from '../shared/api-runtime';

const rt = apiRuntime();

export const handler = apiHandler(linkGetStats, { stats: rt.stats }, rt);
