import { apiRuntime } from '../../api-runtime';
import { AppError } from '../../domain/errors';
import { isGiven, listOf } from '../params';
import type { Operation } from '../types';

/** Link/Delete: `ids` as `ids[]`, `ids[0]` or a comma string. Returns processed / notProcessed. */
export const linkDelete: Operation = async ({ params, account }) => {
  if (!isGiven(params.ids)) throw new AppError('missingParameter', 'The ids parameter is required');
  const ids = listOf(params.ids);
  if (ids === undefined) throw new AppError('limit', 'ids must be a list of link ids');
  if (ids.length === 0) throw new AppError('missingParameter', 'The ids parameter is required');
  return apiRuntime().links.delete(account, ids);
};
