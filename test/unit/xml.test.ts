import fc from 'fast-check';
import { toXml } from '../../shared/api/xml';
import { child, parseXml } from '../support/xml';

describe('toXml', () => {
  it('gives XML that a strict XML 1.0 parser accepts, whatever the keys and texts hold', () => {
    // Any code point, lone surrogates included, with the troublesome ones made frequent, in keys and values.
    const troublesome = fc.constantFrom('\u0000', '\u0001', '\u001f', '\ufffe', '\uffff', '\ud800', '\udfff', '<', '&', '"', '\r', '[', ' ', '1');
    const anyText = fc.string({ unit: fc.oneof(troublesome, fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength: 12 });
    const data = fc.object({ key: anyText, values: [anyText, fc.integer(), fc.constant(null)], maxDepth: 2, maxKeys: 5 });
    fc.assert(
      fc.property(data, anyText, (value, message) => {
        expect(parseXml(toXml({ code: 1, data: value, message })).errors).toEqual([]);
      }),
    );
  });

  it.each([
    ['a C0 control', '\u0001', '\ufffd'],
    ['U+FFFE', '\ufffe', '\ufffd'],
    ['U+FFFF', '\uffff', '\ufffd'],
    ['a lone high surrogate', '\ud800', '\ufffd'],
    ['a lone low surrogate', '\udc00', '\ufffd'],
    ['a surrogate pair', '\ud83d\ude00', '\ud83d\ude00'],
    ['markup', '<a href="x">&amp;</a>', '<a href="x">&amp;</a>'],
    ['CR LF and tab', '\r\n\t', '\r\n\t'],
  ])('shows %s in text and in a field name as the parser reads it back', (_, given, read) => {
    // Act
    const { errors, root } = parseXml(toXml({ code: 1, data: { [`x${given}`]: [`y${given}`] }, message: `z${given}` }));

    // Assess
    expect(errors).toEqual([]);
    expect(child(root, 'message')!.text).toBe(`z${read}`);
    const field = child(root, 'data', 'item')!;
    expect(field.attributes).toEqual({ name: `x${read}` });
    expect(child(field, 'item')!.text).toBe(`y${read}`);
  });

  it('keeps keys that are element names as elements', () => {
    const { root } = parseXml(toXml({ code: 0, data: { clickCnt: 3, 'a.b-c_d': 'x', ids: [1, 2] }, message: '' }));
    expect(child(root, 'data', 'clickCnt')!.text).toBe('3');
    expect(child(root, 'data', 'a.b-c_d')!.text).toBe('x');
    expect(child(root, 'data', 'ids')!.children.map((item) => [item.name, item.text])).toEqual([
      ['item', '1'],
      ['item', '2'],
    ]);
  });
});
