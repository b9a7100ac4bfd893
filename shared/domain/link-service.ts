import type { Account } from './accounts';
import { mapLimited } from './concurrency';
import { AppError, invalidField } from './errors';
import type { CachedLink, LinkCache } from './link-cache';
import type { LinkCodec } from './link-code';
import type { LinkPage, LinkQuery } from './link-listing';
import { LinkResolver } from './link-resolver';
import {
  LINK_STATUS,
  type Link,
  type LinkStatus,
  MAX_MODERATOR_COMMENT_LENGTH,
  MODERATOR_STATUS,
  type ModeratorStatus,
  RESERVED_CODES,
} from './links';
import { lengthProblem } from './text-limits';
import { type Clock, endOfLocalDay, localDate } from './time';

/** What the link service needs from storage; shared/store implements it. */
export interface LinkStore {
  create(link: Link): Promise<void>;
  /** `counts: false` when the caller needs no clickCnt or redirectCnt (they cost a second item's read locally). */
  get(id: number, options?: { consistent?: boolean; counts?: boolean }): Promise<Link | undefined>;
  getMany(ids: number[]): Promise<Link[]>;
  update(accountId: number, id: number, changes: LinkChanges): Promise<Link | undefined>;
  delete(accountId: number, id: number): Promise<boolean>;
  /** Link/List's answer for the account, by the rules of link-listing.ts. */
  list(accountId: number, query: LinkListQuery): Promise<LinkPage>;
  moderate(id: number, moderatorStatus: ModeratorStatus, moderatorComment: string | null): Promise<Link | undefined>;
}

export type LinkChanges = Partial<Pick<Link, 'status' | 'comment' | 'expirationDate' | 'expiresAt'>>;

export interface IdSource {
  next(): Promise<number>;
}

export interface NewLink {
  fullLink: string;
  status?: LinkStatus;
  expirationDate?: string | null;
  comment?: string | null;
  campaignId?: number | null;
  trackingCode?: string | null;
}

/** Link/Update: `expirationDate` null means "no longer expires"; other fields undefined mean unchanged. */
export interface LinkUpdate {
  status?: LinkStatus;
  expirationDate: string | null;
  comment?: string | null;
}

/** A link identified the way Link/Get allows: exactly one of these. */
export type LinkRef = { id: number } | { code: string } | { shortLink: string };

export type { LinkQuery, LinkSortField } from './link-listing';

/** What Link/List asks the store: the criteria, and the id `query` stands for when it is a link code. */
export interface LinkListQuery extends LinkQuery {
  codeId?: number;
}

export const MAX_DELETE_IDS = 1000;

export interface LinkServiceDeps {
  links: LinkStore;
  ids: IdSource;
  /**
   * The code permutation; its secret lives in the table, so it arrives asynchronously.
   * `issue` creates the secret on first use; `read` never writes (read-only functions)
   * and yields undefined while no secret exists, that is, while no link exists.
   */
  codec: (purpose: 'issue' | 'read') => Promise<LinkCodec | undefined>;
  /** The redirect's per-container cache; this service invalidates it on every change. */
  cache: LinkCache;
  /** Epoch milliseconds for the cache's TTL; the clock's when not given. */
  now?: () => number;
  /** `{short_link_base}` without a trailing slash; unset where no short link is built. */
  shortLinkBase: string | undefined;
  clock: Clock;
}

export class LinkService {
  readonly #resolver: LinkResolver;

  constructor(private readonly deps: LinkServiceDeps) {
    const now = deps.now ?? (() => deps.clock().getTime());
    this.#resolver = new LinkResolver({ links: deps.links, codec: () => deps.codec('read'), cache: deps.cache, now });
  }

  shortLinkOf(code: string): string {
    if (this.deps.shortLinkBase === undefined) throw new Error('Missing required setting SHORT_LINK_BASE');
    return `${this.deps.shortLinkBase}/${code}`;
  }

  async create(account: Account, input: NewLink): Promise<Link> {
    const expirationDate = input.expirationDate ?? null;
    this.#assertNotPast(account, expirationDate);
    const codec = await this.#issuingCodec();
    let id: number;
    let code: string;
    do {
      id = await this.deps.ids.next();
      code = codec.encode(id);
    } while (RESERVED_CODES.has(code));
    const link: Link = {
      id,
      accountId: account.id,
      code,
      fullLink: input.fullLink,
      status: input.status ?? LINK_STATUS.active,
      moderatorStatus: MODERATOR_STATUS.approved,
      moderatorComment: null,
      comment: input.comment ?? null,
      expirationDate,
      expiresAt: expiresAt(expirationDate, account.timeZone),
      clickCnt: 0,
      redirectCnt: 0,
      createdAt: this.deps.clock().toISOString(),
      campaignId: input.campaignId ?? null,
      trackingCode: input.trackingCode ?? null,
    };
    await this.deps.links.create(link);
    return link;
  }

  /** The account's link, or a not-found error for unknown links and other accounts' links alike. */
  async get(account: Account, ref: LinkRef): Promise<Link> {
    const link = await this.find(ref);
    if (link.accountId !== account.id) throw new AppError('notFound', 'Link not found');
    return link;
  }

  /** Any account's link, for administrators; a not-found error when there is none. */
  async find(ref: LinkRef): Promise<Link> {
    const id = await this.#idOf(ref);
    const link = id === undefined ? undefined : await this.deps.links.get(id);
    if (!link) throw new AppError('notFound', 'Link not found');
    return link;
  }

  /**
   * The redirect's read: the link behind a code, whoever owns it, from the cache when it
   * is fresh there, else with one eventually consistent GetItem (half a read unit).
   */
  findForRedirect(code: string): CachedLink | undefined | Promise<CachedLink | undefined> {
    return this.#resolver.find(code);
  }

  async update(account: Account, id: number, update: LinkUpdate): Promise<Link> {
    this.#assertNotPast(account, update.expirationDate);
    const updated = await this.deps.links.update(account.id, id, {
      status: update.status,
      comment: update.comment,
      expirationDate: update.expirationDate,
      expiresAt: expiresAt(update.expirationDate, account.timeZone),
    });
    if (!updated) throw new AppError('notFound', 'Link not found');
    this.deps.cache.invalidate(updated.code);
    return updated;
  }

  /**
   * Deletes the account's links among `ids` (as the client wrote them). Ids that are not
   * integers, unknown, or another account's land in notProcessed.
   */
  async delete(account: Account, ids: string[]): Promise<{ processed: number[]; notProcessed: (number | string)[] }> {
    if (ids.length > MAX_DELETE_IDS) throw new AppError('limit', `At most ${MAX_DELETE_IDS} ids can be deleted at once`);
    const unique = [...new Set(ids)];
    const outcomes = await mapLimited(unique, 16, async (raw) => {
      const id = /^\d{1,15}$/.test(raw) ? Number(raw) : undefined;
      const deleted = id !== undefined && (await this.deps.links.delete(account.id, id));
      if (deleted) this.deps.cache.invalidate((await this.#issuingCodec()).encode(id));
      return { id: id ?? raw, deleted };
    });
    return {
      processed: outcomes.filter((o) => o.deleted).map((o) => o.id as number),
      notProcessed: outcomes.filter((o) => !o.deleted).map((o) => o.id),
    };
  }

  /**
   * Link/List, by the rules of link-listing.ts. A query that reads as a link code is decoded
   * here (the codec is the domain's), so the store finds that link with one read.
   */
  async list(account: Account, query: LinkQuery): Promise<LinkPage> {
    const code = query.query?.trim().toLowerCase();
    const codeId = code === undefined ? undefined : (await this.deps.codec('read'))?.decode(code);
    return this.deps.links.list(account.id, codeId === undefined ? query : { ...query, codeId });
  }

  /** The account's links among `ids`, in the order of `ids`; others' and missing ones are left out. */
  async getMany(account: Account, ids: number[]): Promise<Link[]> {
    const found = new Map((await this.deps.links.getMany(ids)).filter((link) => link.accountId === account.id).map((link) => [link.id, link]));
    return ids.flatMap((id) => found.get(id) ?? []);
  }

  /** An administrator blocks (0) or approves (1) any account's link, with an optional comment. */
  async moderate(id: number, moderatorStatus: ModeratorStatus, moderatorComment: string | null): Promise<Link> {
    const problem = moderatorComment === null ? undefined : lengthProblem('A moderator comment', moderatorComment, MAX_MODERATOR_COMMENT_LENGTH);
    if (problem) throw invalidField('moderatorComment', problem);
    const link = await this.deps.links.moderate(id, moderatorStatus, moderatorComment);
    if (!link) throw new AppError('notFound', `No link ${id}`);
    this.deps.cache.invalidate(link.code);
    return link;
  }

  /** `issue` creates the secret when none exists yet, so it always yields a codec. */
  async #issuingCodec(): Promise<LinkCodec> {
    const codec = await this.deps.codec('issue');
    if (!codec) throw new Error('No link code secret to issue codes with');
    return codec;
  }

  async #idOf(ref: LinkRef): Promise<number | undefined> {
    if ('id' in ref) return ref.id;
    const code = 'code' in ref ? ref.code : this.#codeOfShortLink(ref.shortLink);
    if (code === undefined) return undefined;
    return (await this.deps.codec('read'))?.decode(code.toLowerCase());
  }

  /** The code of a short link on our base, with or without its scheme; undefined otherwise. */
  #codeOfShortLink(shortLink: string): string | undefined {
    const withoutScheme = (url: string) => url.replace(/^[a-z]+:\/\//i, '').toLowerCase();
    const base = withoutScheme(this.shortLinkOf('')).replace(/\/$/, '');
    const candidate = withoutScheme(shortLink.trim())
      .replace(/[?#].*$/, '')
      .replace(/\/+$/, '');
    if (!candidate.startsWith(`${base}/`)) return undefined;
    const code = candidate.slice(base.length + 1);
    return code.includes('/') ? undefined : code;
  }

  #assertNotPast(account: Account, expirationDate: string | null | undefined): void {
    if (expirationDate && expirationDate < localDate(this.deps.clock(), account.timeZone)) {
      throw invalidField('expirationDate', 'Expiration date must not be in the past');
    }
  }
}

function expiresAt(expirationDate: string | null, timeZone: string): string | null {
  return expirationDate === null ? null : endOfLocalDay(expirationDate, timeZone).toISOString();
}
