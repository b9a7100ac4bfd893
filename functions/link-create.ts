import { apiHandler } from '../shared/api/handler';
import { linkCreate } from '../shared/api/operations/link-create';
import { apiRuntime } from '../shared/api-runtime';
import { requireShortLinkBase } from '../shared/config';

const rt = apiRuntime();

export const handler = apiHandler(linkCreate, { links: rt.links, shortLinkHost: new URL(requireShortLinkBase(rt.config)).hostname }, rt);
