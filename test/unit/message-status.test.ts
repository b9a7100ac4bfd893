import { canMoveTo, statusesBefore, statusOfParts } from '../../shared/domain/message-status';

describe('message status transitions', () => {
  it('moves forward through the pipeline', () => {
    expect(canMoveTo('NEW', 'ENQUEUD')).toBe(true);
    expect(canMoveTo('ENQUEUD', 'ACCEPTD')).toBe(true);
    expect(canMoveTo('ACCEPTD', 'DELIVRD')).toBe(true);
    expect(canMoveTo('ACCEPTD', 'PDLIVRD')).toBe(true);
    expect(canMoveTo('PDLIVRD', 'DELIVRD')).toBe(true);
  });

  it('takes a report that overtook an earlier step', () => {
    expect(canMoveTo('ENQUEUD', 'DELIVRD')).toBe(true);
  });

  it('never changes a final status and never goes back', () => {
    expect(canMoveTo('DELIVRD', 'UNDELIV')).toBe(false);
    expect(canMoveTo('EXPIRED', 'DELIVRD')).toBe(false);
    expect(canMoveTo('ACCEPTD', 'ENQUEUD')).toBe(false);
    expect(canMoveTo('PDLIVRD', 'ACCEPTD')).toBe(false);
    expect(canMoveTo('ACCEPTD', 'ACCEPTD')).toBe(false);
  });

  it('lists the statuses a conditional write may find before a move', () => {
    expect(statusesBefore('DELIVRD')).toEqual(['NEW', 'ENQUEUD', 'ACCEPTD', 'PDLIVRD']);
    expect(statusesBefore('ENQUEUD')).toEqual(['NEW']);
  });
});

describe('statusOfParts', () => {
  it.each([
    [3, {}, undefined],
    [3, { 2: 'UNDELIV' }, undefined],
    [3, { 1: 'DELIVRD' }, 'PDLIVRD'],
    [3, { 1: 'DELIVRD', 3: 'UNDELIV' }, 'PDLIVRD'],
    [3, { 1: 'DELIVRD', 2: 'DELIVRD', 3: 'DELIVRD' }, 'DELIVRD'],
    [2, { 1: 'DELIVRD', 2: 'UNDELIV' }, 'UNDELIV'],
    [2, { 1: 'DELIVRD', 2: 'EXPIRED' }, 'UNDELIV'],
    [2, { 1: 'REJECTD', 2: 'REJECTD' }, 'REJECTD'],
    [2, { 1: 'EXPIRED', 2: 'EXPIRED' }, 'EXPIRED'],
    [2, { 1: 'REJECTD', 2: 'EXPIRED' }, 'UNDELIV'],
  ] as const)('%i parts reported %j → %s', (parts, reported, expected) => {
    expect(statusOfParts(parts, reported)).toBe(expected);
  });
});
