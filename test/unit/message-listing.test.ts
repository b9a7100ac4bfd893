import type { Campaign } from '../../shared/domain/campaigns';
import { listMessages, type MessageQuery, matchingMessage, needsCampaigns } from '../../shared/domain/message-listing';
import { storedCampaign } from '../support/memory-messaging';

const QUERY: MessageQuery = { sort: [], pagination: { pageSize: 25, currentPage: 0 } };

describe('Message/List as pure functions', () => {
  const stored = [
    storedCampaign(1, { status: 'DONE', sentAt: '2026-11-22T10:01:00.000Z' }, { to: '447400123450', status: 'DELIVRD', segNum: 2 }),
    storedCampaign(2, { status: 'READY_FOR_SEND', deferredTo: '2026-11-23T10:00:00.000Z' }, { to: '447400999999' }),
    storedCampaign(3, { status: 'MODERATION' }, { to: '447400123451', segNum: 2 }),
  ];
  const messages = stored.map(({ message }) => message);
  const campaigns = new Map<number, Campaign>(stored.map(({ campaign }) => [campaign.id, campaign]));
  const ids = (query: Partial<MessageQuery>) => listMessages(messages, campaigns, { ...QUERY, ...query }).items.map(({ message }) => message.id);

  it('lists the newest first by default, and by id as the last tie-break', () => {
    expect(ids({})).toEqual([3, 2, 1]);
    expect(ids({ sort: [{ field: 'segNum', direction: 'ASC' }] })).toEqual([2, 3, 1]);
  });

  it('matches a recipient by substring, and campaign states by their campaign', () => {
    expect(ids({ to: '1234' })).toEqual([3, 1]);
    expect(ids({ campaignStatus: 'NOT_YET_SENT' })).toEqual([3, 2]);
    expect(ids({ campaignStatus: 'DEFERRED' })).toEqual([2]);
    expect(ids({ campaignSentFrom: new Date('2026-11-22T10:00:00Z') })).toEqual([1]);
  });

  it('matches nothing for a contact group, there being no contact book yet', () => {
    expect(matchingMessage({ ...QUERY, groups: ['friends'] })(messages[0]!, campaigns.get(1))).toBe(false);
    expect(matchingMessage({ ...QUERY, groups: [] })(messages[0]!, campaigns.get(1))).toBe(true);
  });

  it('pages after filtering and counts every match', () => {
    const listed = listMessages(messages, campaigns, { ...QUERY, pagination: { pageSize: 25, currentPage: 1 } });
    expect(listed).toEqual({ items: [], totalItemCount: 3 });
  });

  it('reads campaigns only for criteria on them', () => {
    expect(needsCampaigns({ ...QUERY, to: '44' })).toBe(false);
    expect(needsCampaigns({ ...QUERY, campaignStatus: 'DONE' })).toBe(true);
    expect(needsCampaigns({ ...QUERY, campaignSentTo: new Date() })).toBe(true);
  });
});
