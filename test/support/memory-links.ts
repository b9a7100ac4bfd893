import { type LinkPage, listLinks } from '../../shared/domain/link-listing';
import type { LinkChanges, LinkListQuery, LinkStore } from '../../shared/domain/link-service';
import type { Link, ModeratorStatus } from '../../shared/domain/links';

/**
 * Links in a map, with the conditions of shared/store/links-repo.ts: create only a new id,
 * update and delete only the account's own link, moderate any existing link; a change of
 * `null` removes the field, `undefined` leaves it. Reads hand out copies, so a caller
 * cannot change what is stored.
 */
export class MemoryLinkStore implements LinkStore {
  readonly items = new Map<number, Link>();
  /** Every read by id with its consistency, as `get:<id>:<consistent>`. */
  readonly reads: string[] = [];

  async create(link: Link): Promise<void> {
    if (this.items.has(link.id)) throw new Error(`Link ${link.id} exists`);
    this.items.set(link.id, { ...link });
  }

  async get(id: number, options: { consistent?: boolean; counts?: boolean } = {}): Promise<Link | undefined> {
    this.reads.push(`get:${id}:${options.consistent ?? true}`);
    return copy(this.items.get(id));
  }

  async getMany(ids: number[]): Promise<Link[]> {
    // In no particular order, as BatchGetItem answers: here, highest id first.
    return [...new Set(ids)].sort((a, b) => b - a).flatMap((id) => copy(this.items.get(id)) ?? []);
  }

  async update(accountId: number, id: number, changes: LinkChanges): Promise<Link | undefined> {
    const link = this.items.get(id);
    if (link?.accountId !== accountId) return undefined;
    return this.#change(link, changes);
  }

  async delete(accountId: number, id: number): Promise<boolean> {
    if (this.items.get(id)?.accountId !== accountId) return false;
    return this.items.delete(id);
  }

  /** Link/List by the reference rules, over the account's links. */
  async list(accountId: number, query: LinkListQuery): Promise<LinkPage> {
    return listLinks(
      [...this.items.values()].filter((link) => link.accountId === accountId).map((link) => ({ ...link })),
      query,
    );
  }

  async moderate(id: number, moderatorStatus: ModeratorStatus, moderatorComment: string | null): Promise<Link | undefined> {
    const link = this.items.get(id);
    return link && this.#change(link, { moderatorStatus, moderatorComment });
  }

  #change(link: Link, changes: Partial<Link>): Link {
    for (const [field, value] of Object.entries(changes)) {
      if (value !== undefined) Object.assign(link, { [field]: value });
    }
    return { ...link };
  }
}

function copy<T extends object>(value: T | undefined): T | undefined {
  return value && { ...value };
}
