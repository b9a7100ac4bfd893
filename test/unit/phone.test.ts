import { checkRecipient, numberInfo } from '../../shared/domain/phone';

describe('checkRecipient', () => {
  it.each([
    ['447400123456', '447400123456', 'GB'],
    ['+447400123456', '447400123456', 'GB'],
    [' 77012345678 ', '77012345678', 'KZ'],
    ['998901234567', '998901234567', 'UZ'],
    ['14155552671', '14155552671', 'US'],
  ])('accepts %j as %s in %s', (raw, number, countryA2) => {
    expect(checkRecipient(raw)).toEqual({ ok: true, number, countryA2 });
  });

  it.each([
    ['', 'Recipient is required'],
    ['++447700900123', 'Recipient must be an international number in digits only, e.g. 447700900123'],
    ['44 7700 900123', 'Recipient must be an international number in digits only, e.g. 447700900123'],
    ['4477009', 'Recipient is not a valid phone number'],
    ['12345678901234567', 'Recipient is not a valid phone number'],
    ['0007700900123', 'Recipient is not a valid phone number'],
  ])('rejects %j', (raw, problem) => {
    expect(checkRecipient(raw)).toEqual({ ok: false, problem });
  });
});

describe('numberInfo', () => {
  it('names the country and the operator the range belongs to', async () => {
    const info = await numberInfo('77012345678');
    expect(info.countryA2).toBe('KZ');
    expect(typeof info.operatorName).toBe('string');
    expect(info.operatorName!.length).toBeGreaterThan(0);
  });

  it('gives no operator for a fixed line', async () => {
    expect(await numberInfo('442071838750')).toEqual({ countryA2: 'GB', operatorName: null });
  });
});
