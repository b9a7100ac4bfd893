import { type ClickEvent, clickEventBody } from '../../shared/domain/clicks';
import { isoInstant } from '../../shared/domain/time';

describe('click events on the queue', () => {
  it.each<ClickEvent>([
    { linkId: 1, accountId: 2, at: '2026-11-23T10:00:00.000Z', visitor: 'human', redirected: true },
    { linkId: 9_007_199_254_740_991, accountId: 77, at: '2026-01-01T00:00:00.001Z', visitor: 'bot', redirected: false },
  ])('writes %j as the JSON it is', (click) => {
    expect(JSON.parse(clickEventBody(click))).toEqual(click);
  });

  it('gives the ISO time of each instant, also when instants repeat and alternate', () => {
    const instants = [0, 1, 1, 999, 1_000, 1, 1_764_000_000_123, 1_764_000_000_123, 1_764_000_000_124].map((ms) => new Date(ms));
    expect(instants.map(isoInstant)).toEqual(instants.map((date) => date.toISOString()));
  });
});
