import * as v from 'valibot';
import type { AccountService } from '../domain/account-service';
import { DEFAULT_LINK_ORDER } from '../domain/link-listing';
import type { LinkRef, LinkService } from '../domain/link-service';
import type { Link } from '../domain/links';
import { MAX_MODERATOR_COMMENT_LENGTH, MODERATOR_STATUS, type ModeratorStatus } from '../domain/links';
import type { PageSize } from '../domain/paging';
import { adminOperation, entityIdField, PAGING } from './operation';

export interface LinksDeps {
  links: Pick<LinkService, 'find' | 'list' | 'moderate' | 'shortLinkOf'>;
  accounts: Pick<AccountService, 'getAccount'>;
}

/** A link as operators see it: with its owner (accountId, on every link) and its short link. */
export type OperatorLink = Link & { shortLink: string };

const withShortLink = (links: LinksDeps['links'], link: Link): OperatorLink => ({ ...link, shortLink: links.shortLinkOf(link.code) });

const REF_NAMES = ['id', 'code', 'shortLink'] as const;

export const linksFind = adminOperation({
  path: 'links/find',
  input: v.pipe(
    v.strictObject({
      id: v.optional(entityIdField('id')),
      code: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty('code must not be empty'), v.maxLength(64, 'code is at most 64 characters'))),
      shortLink: v.optional(
        v.pipe(v.string(), v.trim(), v.nonEmpty('shortLink must not be empty'), v.maxLength(2000, 'shortLink is at most 2000 characters')),
      ),
    }),
    v.check((input) => REF_NAMES.filter((name) => input[name] !== undefined).length === 1, 'Pass exactly one of id, code or shortLink'),
  ),
  run: async (input, { links }: LinksDeps) => {
    const ref: LinkRef =
      input.id !== undefined ? { id: input.id } : input.code !== undefined ? { code: input.code } : { shortLink: input.shortLink ?? '' };
    return withShortLink(links, await links.find(ref));
  },
});

async function accountLinks(deps: LinksDeps, accountId: number, page: number, pageSize: PageSize, moderatorStatus?: ModeratorStatus) {
  const account = await deps.accounts.getAccount(accountId);
  const found = await deps.links.list(account, {
    ...(moderatorStatus !== undefined && { moderatorStatus }),
    sort: DEFAULT_LINK_ORDER,
    pagination: { currentPage: page, pageSize },
  });
  return { items: found.items.map((link) => withShortLink(deps.links, link)), totalItemCount: found.totalItemCount };
}

const accountPage = v.strictObject({ accountId: entityIdField('accountId'), ...PAGING });

/** The account's blocked links (moderatorStatus 0), newest first, from the list indexes. */
export const linksBlocked = adminOperation({
  path: 'links/blocked',
  input: accountPage,
  run: ({ accountId, page, pageSize }, deps: LinksDeps) => accountLinks(deps, accountId, page, pageSize, MODERATOR_STATUS.blocked),
});

/** The account's newest links: the queue an operator reviews. */
export const linksRecent = adminOperation({
  path: 'links/recent',
  input: accountPage,
  run: ({ accountId, page, pageSize }, deps: LinksDeps) => accountLinks(deps, accountId, page, pageSize),
});

const moderation = v.strictObject({
  id: entityIdField('id'),
  comment: v.optional(
    v.nullable(
      v.pipe(
        v.string('comment must be text'),
        v.maxLength(MAX_MODERATOR_COMMENT_LENGTH, `comment is at most ${MAX_MODERATOR_COMMENT_LENGTH} characters`),
      ),
    ),
  ),
});

/** Blocks a link: its redirect answers 451 from then on. */
export const linksBlock = adminOperation({
  path: 'links/block',
  input: moderation,
  run: async ({ id, comment }, { links }: LinksDeps) => withShortLink(links, await links.moderate(id, MODERATOR_STATUS.blocked, comment ?? null)),
});

export const linksApprove = adminOperation({
  path: 'links/approve',
  input: moderation,
  run: async ({ id, comment }, { links }: LinksDeps) => withShortLink(links, await links.moderate(id, MODERATOR_STATUS.approved, comment ?? null)),
});
