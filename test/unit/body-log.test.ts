import { BodyLog } from '../../shared/local/body-log';

describe('BodyLog', () => {
  it('gives back what was appended, in order, with its time, and nothing once empty', () => {
    const log = new BodyLog();
    const bodies = ['{"a":1}', 'Привет, мир', '😀 emoji', '', 'x'.repeat(10_000)];
    for (const [index, body] of bodies.entries()) log.append(body, 1000 + index);
    expect(log.size).toBe(5);
    expect(log.peekAll()).toEqual(bodies);
    expect(bodies.map(() => log.take())).toEqual(bodies.map((body, index) => ({ body, at: 1000 + index })));
    expect(log.take()).toBeUndefined();
    expect(log.size).toBe(0);
  });

  it('spans many buffers, takes and appends in turn, and stays exact', () => {
    const log = new BodyLog();
    const expected: string[] = [];
    const taken: string[] = [];
    let next = 0;
    // About 40 MB in all, so buffers fill, are let go and new ones are started.
    for (let round = 0; round < 200; round++) {
      for (let i = 0; i < 1000; i++) {
        const body = `{"n":${next++},"pad":"${'é'.repeat(next % 97)}"}`;
        expected.push(body);
        log.append(body, next);
      }
      for (let i = 0; i < (round % 3 === 2 ? 2500 : 400); i++) {
        const entry = log.take();
        if (!entry) break;
        taken.push(entry.body);
      }
    }
    for (let entry = log.take(); entry; entry = log.take()) taken.push(entry.body);
    expect(taken).toEqual(expected);
  });

  it('keeps a body larger than a buffer whole', () => {
    const log = new BodyLog();
    const big = 'ü'.repeat(BodyLog.CHUNK_BYTES);
    log.append('small', 1);
    log.append(big, 2);
    log.append('after', 3);
    expect([log.take()?.body, log.take()?.body === big, log.take()?.body]).toEqual(['small', true, 'after']);
  });

  it('refuses a body that is not well-formed Unicode, as SQS does', () => {
    const log = new BodyLog();
    expect(() => log.append('broken \uD800 surrogate', 1)).toThrow(/well-formed/);
    expect(log.size).toBe(0);
  });
});
