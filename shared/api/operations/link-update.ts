import * as v from 'valibot';
import { AppError } from '../../domain/errors';
import type { LinkService } from '../../domain/link-service';
import { entityId, isGiven, isRecord, parseWith, readParams } from '../params';
import type { Operation } from '../types';
import { blankAsAbsent, comment, expirationDate, linkStatus } from './link-fields';

export interface LinkUpdateDeps {
  links: Pick<LinkService, 'update' | 'shortLinkOf'>;
}

/** `id`: any text that is no entity id names no link. */
export const idSchema = entityId('Link not found');

export const updateSchema = v.object({
  status: v.optional(linkStatus),
  // Absent means "no longer expires" (interface spec §4.7), not "unchanged".
  expirationDate: v.optional(expirationDate, ''),
  comment: v.optional(comment),
});

/** Link/Update: `id` required; `data[status]`, `data[expirationDate]`, `data[comment]`. Returns the short link. */
export const linkUpdate: Operation<LinkUpdateDeps> = async ({ params, account, deps: { links } }) => {
  if (!isGiven(params.id)) throw new AppError('missingParameter', 'The id parameter is required');
  // As in Link/Get: an id in another shape (`id[]=1`) breaks the one-link limit; any other
  // text is no link's id.
  const id = readParams(idSchema, readParams(v.string('id must be a single value'), params.id), 'notFound');
  // `data=` is how PHP clients send a parameter they do not set: no fields, like no data at all.
  const data = isGiven(params.data) ? params.data : {};
  if (!isRecord(data)) throw new AppError('invalid', 'data must carry fields such as data[status]', { data: ['Expected fields'] });
  const input = parseWith(updateSchema, blankAsAbsent(data, ['status']));
  const link = await links.update(account, id, { ...input, expirationDate: input.expirationDate ?? null });
  return links.shortLinkOf(link.code);
};
