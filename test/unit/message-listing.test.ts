import { type CampaignState, campaignStateOf, listMessages, type MessageQuery, matchingMessage } from '../../shared/domain/message-listing';
import { storedCampaign } from '../support/memory-messaging';

const QUERY: MessageQuery = { sort: [], pagination: { pageSize: 25, currentPage: 0 } };

describe('Message/List as pure functions', () => {
  const stored = [
    storedCampaign(
      1,
      { status: 'DONE', sentAt: '2026-11-22T10:01:00.000Z' },
      { to: '447400123450', status: 'DELIVRD', segNum: 2, startSendAt: '2026-11-22T10:01:00.000Z' },
    ),
    storedCampaign(2, { status: 'READY_FOR_SEND', deferredTo: '2026-11-23T10:00:00.000Z' }, { to: '447400999999' }),
    storedCampaign(3, { status: 'MODERATION' }, { to: '447400123451', segNum: 2 }),
  ];
  const messages = stored.map(({ message }) => message);
  const campaigns = new Map<number, CampaignState>(stored.map(({ campaign }) => [campaign.id, campaignStateOf(campaign)]));
  const ids = (query: Partial<MessageQuery>) => listMessages(messages, campaigns, { ...QUERY, ...query }).items.map(({ message }) => message.id);

  it('lists the newest first by default, and ties by creation and id in the sort\u2019s direction', () => {
    expect(ids({})).toEqual([3, 2, 1]);
    expect(ids({ sort: [{ field: 'segNum', direction: 'ASC' }] })).toEqual([2, 1, 3]);
    expect(ids({ sort: [{ field: 'segNum', direction: 'DESC' }] })).toEqual([3, 1, 2]);
  });

  it('sorts strings by code point (as the index keys do), not by locale', () => {
    const texts = ['b', 'B', 'é', 'a'].map((text, i) => storedCampaign(10 + i, {}, { text }).message);
    const sorted = listMessages(texts, new Map(), { ...QUERY, sort: [{ field: 'text', direction: 'ASC' }] });
    expect(sorted.items.map(({ message }) => message.text)).toEqual(['B', 'a', 'b', 'é']);
  });

  it('matches a recipient by its start or end, or anywhere when no number starts or ends so', () => {
    expect(ids({ to: '0' })).toEqual([1]);
    expect(ids({ to: '4474' })).toEqual([3, 2, 1]);
    expect(ids({ to: '1234' })).toEqual([3, 1]);
  });

  it('matches campaign states by the state copied from the campaign, and its sending time by the message\u2019s', () => {
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
});
