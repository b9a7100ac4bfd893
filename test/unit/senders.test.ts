import { type Account, EMPTY_SENDING_SETTINGS } from '../../shared/domain/accounts';
import { AppError } from '../../shared/domain/errors';
import { isValidSignature, resolveSender, segmentPrice } from '../../shared/domain/senders';
import { anAccount } from '../support/fixtures';

const account = (sending: Partial<Account['sending']>): Account => anAccount({ sending: { ...EMPTY_SENDING_SETTINGS, ...sending } });

describe('resolveSender', () => {
  const signatures = { Shop: { approved: true, createdAt: '' }, Pending: { approved: false, createdAt: '' } };

  it('uses the approved default signature when from is absent or empty', () => {
    expect(resolveSender(account({ signatures, defaultSignature: 'Shop' }), undefined, 'SMSService')).toBe('Shop');
    expect(resolveSender(account({ signatures, defaultSignature: 'Shop' }), '  ', 'SMSService')).toBe('Shop');
  });

  it('falls back to the service signature without a usable default', () => {
    expect(resolveSender(account({}), undefined, 'SMSService')).toBe('SMSService');
    expect(resolveSender(account({ signatures, defaultSignature: 'Pending' }), '', 'SMSService')).toBe('SMSService');
  });

  it('takes a named signature only when it is registered and approved', () => {
    expect(resolveSender(account({ signatures }), 'Shop', 'SMSService')).toBe('Shop');
    for (const from of ['Pending', 'Unknown']) {
      const attempt = () => resolveSender(account({ signatures }), from, 'SMSService');
      expect(attempt).toThrow(AppError);
      expect(attempt).toThrow(`Sender ${from} is not an approved signature of this account`);
    }
  });
});

describe('isValidSignature', () => {
  it.each(['Shop', 'My Shop 24', 'A.B-C_D', '447400123456'])('accepts %j', (name) => expect(isValidSignature(name)).toBe(true));
  it.each(['', 'TwelveLetter', '12345', '1234567890123456', 'Shop!'])('rejects %j', (name) => {
    // 12345 is numeric and fine; only over 15 digits fails
    expect(isValidSignature(name)).toBe(name === '12345');
  });
});

describe('segmentPrice', () => {
  it('prices by country, then by the * entry, else not at all', () => {
    const sending = { ...EMPTY_SENDING_SETTINGS, tariff: { KZ: 0.02, '*': 0.05 } };
    expect(segmentPrice(sending, 'KZ')).toBe(0.02);
    expect(segmentPrice(sending, 'GB')).toBe(0.05);
    expect(segmentPrice(EMPTY_SENDING_SETTINGS, 'GB')).toBeUndefined();
  });
});
