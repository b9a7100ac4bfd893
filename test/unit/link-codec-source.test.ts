import { LinkCodec } from '../../shared/domain/link-code';
import { linkCodecSource } from '../../shared/link-codec-source';

/** The settings the source reads: a secret that may not exist yet, reads counted, a failure on demand. */
function settings() {
  const state = { secret: undefined as string | undefined, reads: 0, creates: 0, failNext: false };
  return {
    state,
    existingLinkCodeSecret: async () => {
      state.reads++;
      return state.secret;
    },
    linkCodeSecret: async () => {
      state.creates++;
      if (state.failNext) {
        state.failNext = false;
        throw new Error('table unavailable');
      }
      state.secret ??= 'a-link-code-secret-of-32-characters!';
      return state.secret;
    },
  };
}

describe('linkCodecSource', () => {
  it('reads without writing until the secret exists, then keeps the codec', async () => {
    // Prepare
    const table = settings();
    const codec = linkCodecSource(table);

    // Act
    const before = await codec('read');
    table.state.secret = 'a-link-code-secret-of-32-characters!'; // a link made by another process
    const first = await codec('read');
    const second = await codec('read');
    const issuing = await codec('issue');

    // Assess
    expect(before).toBeUndefined();
    expect(first?.encode(7)).toBe(new LinkCodec('a-link-code-secret-of-32-characters!').encode(7));
    expect(second).toBe(first);
    expect(issuing).toBe(first);
    expect(table.state).toMatchObject({ reads: 2, creates: 0 });
  });

  it('creates the secret once for issuing, serves reads from it, and tries again after a failed one', async () => {
    // Prepare
    const table = settings();
    const codec = linkCodecSource(table);
    table.state.failNext = true;

    // Act
    const failed = codec('issue');
    await expect(failed).rejects.toThrow('table unavailable');
    const [issuing, again, reading] = await Promise.all([codec('issue'), codec('issue'), codec('read')]);

    // Assess
    expect(issuing).toBeInstanceOf(LinkCodec);
    expect(again).toBe(issuing);
    expect(reading).toBe(issuing);
    expect(table.state).toMatchObject({ reads: 0, creates: 2 });
  });
});
