import { apiHandler } from '../shared/api/handler';
import { linkGetStats } from '../shared/api/operations/link-get-stats';
import { apiCore } from '../shared/api-core';
import { StatsService } from '../shared/domain/stats-service';
import { ClickBuckets } from '../shared/store/link-clicks';

const rt = apiCore();
// Built here, not in the core: the other functions' bundles do without the statistics.
const stats = new StatsService({ links: rt.linksRepository, buckets: new ClickBuckets(rt.store), clock: () => rt.clock() });

export const handler = apiHandler(linkGetStats, { stats }, rt);
