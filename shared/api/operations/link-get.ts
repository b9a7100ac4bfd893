import * as v from 'valibot';
import type { LinkRef, LinkService } from '../../domain/link-service';
import { entityId, isGiven, readParams } from '../params';
import { presentLink } from '../present';
import type { Operation } from '../types';

export interface LinkGetDeps {
  links: Pick<LinkService, 'get' | 'shortLinkOf'>;
}

const REF_NAMES = ['id', 'code', 'shortLink'] as const;

/** The one reference given, by name; its value trimmed. */
export const refSchema = v.pipe(
  v.record(v.string(), v.unknown()),
  v.transform((params) => REF_NAMES.filter((name) => isGiven(params[name])).map((name) => ({ name, value: params[name] }))),
  v.length(1, 'Pass exactly one of id, code or shortLink'),
  v.transform(([ref]) => ref),
  v.variant(
    'name',
    REF_NAMES.map((name) => v.object({ name: v.literal(name), value: v.pipe(v.string(`${name} must be a single value`), v.trim()) })),
  ),
);

/** Link/Get: exactly one of `id`, `code`, `shortLink` (code 12 otherwise); one link per call. */
export const linkGet: Operation<LinkGetDeps> = async ({ params, account, deps: { links } }) => {
  const link = await links.get(account, linkRef(params));
  return presentLink(link, account, links.shortLinkOf(link.code));
};

function linkRef(params: Record<string, unknown>): LinkRef {
  const { name, value } = readParams(refSchema, params);
  // No link has an id that is not a positive integer: such an id is simply not found.
  if (name === 'id') return { id: readParams(entityId('Link not found'), value, 'notFound') };
  return name === 'code' ? { code: value } : { shortLink: value };
}
