import { type LinkDeleteDeps, linkDelete } from '../../../shared/api/operations/link-delete';
import { run } from './fakes';

/** Deletes the calling account's links 1 to 3 from memory; any other id is not processed. */
function fakeLinks() {
  const owned = new Set([1, 2, 3]);
  const asked: string[][] = [];
  const links: LinkDeleteDeps['links'] = {
    delete: async (account, ids) => {
      asked.push(ids);
      const processed = ids.map(Number).filter((id) => account.id === 1 && owned.delete(id));
      return { processed, notProcessed: ids.filter((id) => !processed.includes(Number(id))) };
    },
  };
  return { links, asked };
}

describe('Link/Delete', () => {
  it('reads ids in every list shape and returns what was processed', async () => {
    for (const ids of [['1', '2'], { 0: '1', 1: '2' }, '1, 2', ' 1,,2 ']) {
      const { links, asked } = fakeLinks();
      await expect(run(linkDelete, { links }, { ids })).resolves.toEqual({ processed: [1, 2], notProcessed: [] });
      expect(asked).toEqual([['1', '2']]);
    }
  });

  it('passes ids that are no link id on, for the answer to name them', async () => {
    const { links, asked } = fakeLinks();
    await expect(run(linkDelete, { links }, { ids: '3,x' })).resolves.toEqual({ processed: [3], notProcessed: ['x'] });
    expect(asked).toEqual([['3', 'x']]);
  });

  it('wants ids: absent, blank or only commas is a missing parameter', async () => {
    const { links, asked } = fakeLinks();
    for (const params of [{}, { ids: '' }, { ids: ' , ,' }, { ids: [] }]) {
      await expect(run(linkDelete, { links }, params)).rejects.toMatchObject({
        kind: 'missingParameter',
        message: 'The ids parameter is required',
        fields: undefined,
      });
    }
    expect(asked).toEqual([]);
  });

  it('refuses ids that are no list of values', async () => {
    const { links, asked } = fakeLinks();
    for (const ids of [[['1']], { a: '1' }, { 0: { 1: '2' } }]) {
      await expect(run(linkDelete, { links }, { ids })).rejects.toMatchObject({
        kind: 'limit',
        message: 'ids must be a list of link ids',
        fields: undefined,
      });
    }
    expect(asked).toEqual([]);
  });
});
