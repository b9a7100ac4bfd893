import { AppError } from '../../domain/errors';
import type { LinkService } from '../../domain/link-service';
import { idList, isGiven, readParams } from '../params';
import type { Operation } from '../types';

export interface LinkDeleteDeps {
  links: Pick<LinkService, 'delete'>;
}

export const idsSchema = idList('ids must be a list of link ids');

/** Link/Delete: `ids` as `ids[]`, `ids[0]` or a comma string. Returns processed / notProcessed. */
export const linkDelete: Operation<LinkDeleteDeps> = async ({ params, account, deps: { links } }) => {
  // Blank entries are dropped, so `ids=,` names no link: as if ids were not given.
  const ids = isGiven(params.ids) ? readParams(idsSchema, params.ids) : [];
  if (ids.length === 0) throw new AppError('missingParameter', 'The ids parameter is required');
  return links.delete(account, ids);
};
