import { apiRuntime } from '../../api-runtime';
import { AppError } from '../../domain/errors';
import type { LinkRef } from '../../domain/link-service';
import { isGiven } from '../params';
import { presentLink } from '../present';
import type { Operation } from '../types';

/** Link/Get: exactly one of `id`, `code`, `shortLink` (code 12 otherwise); one link per call. */
export const linkGet: Operation = async ({ params, account }) => {
  const { links } = apiRuntime();
  const link = await links.get(account, linkRef(params));
  return presentLink(link, account, links.shortLinkOf(link.code));
};

function linkRef(params: Record<string, unknown>): LinkRef {
  const given = (['id', 'code', 'shortLink'] as const).filter((name) => isGiven(params[name]));
  const [name] = given;
  if (given.length !== 1 || name === undefined) throw new AppError('limit', 'Pass exactly one of id, code or shortLink');
  const value = params[name];
  if (typeof value !== 'string') throw new AppError('limit', `${name} must be a single value`);
  const trimmed = value.trim();
  if (name === 'id') {
    // No link has an id that is not a positive integer: such an id is simply not found.
    if (!/^\d{1,15}$/.test(trimmed)) throw new AppError('notFound', 'Link not found');
    return { id: Number(trimmed) };
  }
  return name === 'code' ? { code: trimmed } : { shortLink: trimmed };
}
