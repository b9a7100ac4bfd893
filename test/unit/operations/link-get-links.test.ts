import { type LinkGetLinksDeps, linkGetLinks } from '../../../shared/api/operations/link-get-links';
import { AppError } from '../../../shared/domain/errors';
import { aLink, anAccount, run, shortLinkOf } from './fakes';

/** Campaigns in memory, each of one account; another account's campaign is not found, as the service answers. */
function fakeDeps(): { deps: LinkGetLinksDeps; asked: number[] } {
  const campaigns = new Map([
    [10, { accountId: 1, links: [aLink({ id: 1, code: 'one', clickCnt: 3, redirectCnt: 4, comment: 'sms' })] }],
    [20, { accountId: 2, links: [aLink({ id: 2, accountId: 2, code: 'two' })] }],
  ]);
  const asked: number[] = [];
  return {
    asked,
    deps: {
      messageQueries: {
        campaignLinks: async (account, campaignId) => {
          asked.push(campaignId);
          const campaign = campaigns.get(campaignId);
          if (!campaign || campaign.accountId !== account.id) throw new AppError('notFound', 'Campaign not found');
          return campaign.links;
        },
      },
      links: { shortLinkOf },
    },
  };
}

describe('Link/GetLinks', () => {
  it("lists the campaign's links with their counts and short links", async () => {
    const { deps, asked } = fakeDeps();
    await expect(run(linkGetLinks, deps, { campaignId: ' 10 ' })).resolves.toEqual([
      { id: 1, code: 'one', fullLink: 'https://example.com/', shortLink: 'https://s.test/one', clickCnt: 3, redirectCnt: 4, comment: 'sms' },
    ]);
    expect(asked).toEqual([10]);
  });

  it("answers not found for another account's campaign", async () => {
    const { deps } = fakeDeps();
    await expect(run(linkGetLinks, deps, { campaignId: '20' })).rejects.toMatchObject({ kind: 'notFound', message: 'Campaign not found' });
    await expect(run(linkGetLinks, deps, { campaignId: '20' }, anAccount({ id: 2 }))).resolves.toHaveLength(1);
  });

  it('answers not found for a campaign id no campaign can have, without looking', async () => {
    const { deps, asked } = fakeDeps();
    for (const campaignId of ['x', '-10', '10.5', ['10'], { a: '10' }, '1234567890123456']) {
      await expect(run(linkGetLinks, deps, { campaignId })).rejects.toMatchObject({
        kind: 'notFound',
        message: 'Campaign not found',
        fields: undefined,
      });
    }
    expect(asked).toEqual([]);
  });

  it('wants a campaign id', async () => {
    const { deps } = fakeDeps();
    for (const params of [{}, { campaignId: '' }]) {
      await expect(run(linkGetLinks, deps, params)).rejects.toMatchObject({
        kind: 'missingParameter',
        message: 'The campaignId parameter is required',
      });
    }
  });
});
