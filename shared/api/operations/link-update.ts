import * as v from 'valibot';
import { apiRuntime } from '../../api-runtime';
import { AppError } from '../../domain/errors';
import { isGiven, isRecord, parseWith } from '../params';
import type { Operation } from '../types';
import { blankAsAbsent, comment, expirationDate, linkStatus } from './link-fields';

const updateSchema = v.object({
  status: v.optional(linkStatus),
  // Absent means "no longer expires" (interface spec §4.7), not "unchanged".
  expirationDate: v.optional(expirationDate, ''),
  comment: v.optional(comment),
});

/** Link/Update: `id` required; `data[status]`, `data[expirationDate]`, `data[comment]`. Returns the short link. */
export const linkUpdate: Operation = async ({ params, account }) => {
  if (!isGiven(params.id)) throw new AppError('missingParameter', 'The id parameter is required');
  // As in Link/Get: an id in another shape (`id[]=1`) breaks the one-link limit; any other
  // text is no link's id.
  if (typeof params.id !== 'string') throw new AppError('limit', 'id must be a single value');
  const id = params.id.trim();
  if (!/^\d{1,15}$/.test(id)) throw new AppError('notFound', 'Link not found');
  // `data=` is how PHP clients send a parameter they do not set: no fields, like no data at all.
  const data = isGiven(params.data) ? params.data : {};
  if (!isRecord(data)) throw new AppError('invalid', 'data must carry fields such as data[status]', { data: ['Expected fields'] });
  const input = parseWith(updateSchema, blankAsAbsent(data, ['status']));
  const { links } = apiRuntime();
  const link = await links.update(account, Number(id), { ...input, expirationDate: input.expirationDate ?? null });
  return links.shortLinkOf(link.code);
};
