import { type LinkGetDeps, linkGet } from '../../../shared/api/operations/link-get';
import { AppError } from '../../../shared/domain/errors';
import type { LinkRef } from '../../../shared/domain/link-service';
import { aLink, anAccount, run, shortLinkOf } from './fakes';

const mine = aLink({ id: 7, code: 'mine7', comment: 'spring' });
const theirs = aLink({ id: 8, accountId: 2, code: 'their8' });

/** Links in memory, found by any reference, only the calling account's. */
function fakeLinks() {
  const asked: LinkRef[] = [];
  const links: LinkGetDeps['links'] = {
    get: async (account, ref) => {
      asked.push(ref);
      const found = [mine, theirs].find(
        (link) =>
          link.accountId === account.id &&
          ('id' in ref ? link.id === ref.id : 'code' in ref ? link.code === ref.code : shortLinkOf(link.code) === ref.shortLink),
      );
      if (!found) throw new AppError('notFound', 'Link not found');
      return found;
    },
    shortLinkOf,
  };
  return { links, asked };
}

describe('Link/Get', () => {
  it('finds the link by id, code or short link, each trimmed, and presents it with its short link', async () => {
    for (const params of [{ id: ' 7 ' }, { code: ' mine7' }, { shortLink: 'https://s.test/mine7 ' }]) {
      const { links } = fakeLinks();
      await expect(run(linkGet, { links }, params)).resolves.toEqual({
        id: 7,
        status: 1,
        moderatorStatus: 1,
        clickCnt: 0,
        redirectCnt: 0,
        createTs: '2026-01-02 03-04-05',
        expirationDate: null,
        code: 'mine7',
        fullLink: 'https://example.com/',
        shortLink: 'https://s.test/mine7',
        comment: 'spring',
        moderatorComment: null,
      });
    }
  });

  it('reads the id as a number and passes the account', async () => {
    const { links, asked } = fakeLinks();
    await run(linkGet, { links }, { id: '7', code: '' });
    expect(asked).toEqual([{ id: 7 }]);
    await expect(run(linkGet, { links }, { id: '8' })).rejects.toMatchObject({ kind: 'notFound', message: 'Link not found' });
  });

  it('wants exactly one reference; a blank one is not given', async () => {
    const { links, asked } = fakeLinks();
    for (const params of [{}, { id: '', code: '' }, { id: '7', code: 'mine7' }, { code: 'a', shortLink: 'b' }]) {
      await expect(run(linkGet, { links }, params)).rejects.toMatchObject({
        kind: 'limit',
        message: 'Pass exactly one of id, code or shortLink',
        fields: undefined,
      });
    }
    expect(asked).toEqual([]);
  });

  it('refuses a reference given as a list', async () => {
    const { links } = fakeLinks();
    await expect(run(linkGet, { links }, { id: ['7'] })).rejects.toMatchObject({ kind: 'limit', message: 'id must be a single value' });
    await expect(run(linkGet, { links }, { code: { 0: 'a' } })).rejects.toMatchObject({ kind: 'limit', message: 'code must be a single value' });
    await expect(run(linkGet, { links }, { shortLink: ['x'] })).rejects.toMatchObject({
      kind: 'limit',
      message: 'shortLink must be a single value',
    });
  });

  it('answers not found for an id no link can have, without looking', async () => {
    const { links, asked } = fakeLinks();
    for (const id of ['abc', '-7', '7.0', '1234567890123456', ' ']) {
      await expect(run(linkGet, { links }, { id })).rejects.toMatchObject({ kind: 'notFound', message: 'Link not found', fields: undefined });
    }
    expect(asked).toEqual([]);
  });

  it('reads the creation time in the account zone', async () => {
    const { links } = fakeLinks();
    const link = (await run(linkGet, { links }, { id: '7' }, anAccount({ timeZone: 'Asia/Tokyo' }))) as { createTs: string };
    expect(link.createTs).toBe('2026-01-02 12-04-05');
  });
});
