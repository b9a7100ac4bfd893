import { apiHandler } from '../shared/api/handler';
import { linkCreate } from '../shared/api/operations/link-create';
import { apiCore } from '../shared/api-core';
import { requireShortLinkBase } from '../shared/config';

const rt = apiCore();

export const handler = apiHandler(linkCreate, { links: rt.links, shortLinkHost: new URL(requireShortLinkBase(rt.config)).hostname }, rt);
