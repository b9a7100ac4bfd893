import type { LinkChanges, LinkStore } from '../../shared/domain/link-service';
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

  async get(id: number, options: { consistent?: boolean } = {}): Promise<Link | undefined> {
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

  async listByAccount(accountId: number): Promise<Link[]> {
    // The index's sort key, createdAt#<padded id>, read backwards: newest first.
    const indexKey = (link: Link) => `${link.createdAt}#${String(link.id).padStart(15, '0')}`;
    return [...this.items.values()]
      .filter((link) => link.accountId === accountId)
      .sort((a, b) => (indexKey(a) < indexKey(b) ? 1 : -1))
      .map((link) => ({ ...link }));
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
