import { apiHandler } from '../shared/api/handler';
import { linkList } from '../shared/api/operations/link-list';
import { apiCore } from '../shared/api-core';
import { indexedLists } from '../shared/store/indexed-lists';

const rt = apiCore({ lists: indexedLists });

export const handler = apiHandler(linkList, { links: rt.links }, rt);
