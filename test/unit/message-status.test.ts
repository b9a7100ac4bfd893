import { canMoveTo, statusesBefore } from '../../shared/domain/message-status';

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
