import { echo, listOf } from '../../shared/api/params';
import { resolveOperation } from '../../shared/api/routes';
import { page } from '../../shared/domain/paging';

describe('listOf', () => {
  it('reads arrays, index-keyed objects, comma strings and single values', () => {
    expect(listOf(['1', '2'])).toEqual(['1', '2']);
    expect(listOf({ 0: '1', 1: '2' })).toEqual(['1', '2']);
    expect(listOf(' 1, 2 ,,3')).toEqual(['1', '2', '3']);
    expect(listOf('7')).toEqual(['7']);
  });

  it('refuses nested values', () => {
    expect(listOf([['1']])).toBeUndefined();
    expect(listOf({ a: { b: '1' } })).toBeUndefined();
    expect(listOf(undefined)).toBeUndefined();
  });
});

describe('resolveOperation', () => {
  it('matches module and method in any letter case', () => {
    expect(resolveOperation('/service/Link/Create')).toEqual({ kind: 'operation', handler: 'link-create' });
    expect(resolveOperation('/service/link/getlinks')).toEqual({ kind: 'operation', handler: 'link-get-links' });
    expect(resolveOperation('/service/MESSAGE/sendSMSmessage')).toEqual({ kind: 'operation', handler: 'message-send-sms-message' });
    expect(resolveOperation('/service/LINK/GET')).toEqual({ kind: 'operation', handler: 'link-get' });
  });

  it('tells an unknown module from an unknown method', () => {
    expect(resolveOperation('/service/Nope/Create')).toEqual({ kind: 'unknownModule', name: 'Nope' });
    expect(resolveOperation('/service/Link/Nope')).toEqual({ kind: 'unknownMethod', name: 'Link/Nope' });
    expect(resolveOperation('/service')).toEqual({ kind: 'unknownModule', name: '' });
    expect(resolveOperation('/service/Link/Get/extra').kind).toBe('unknownMethod');
  });

  it('never resolves inherited object properties', () => {
    expect(resolveOperation('/service/constructor/create').kind).toBe('unknownModule');
    expect(resolveOperation('/service/link/toString').kind).toBe('unknownMethod');
    expect(resolveOperation('/service/__proto__/x').kind).toBe('unknownModule');
  });
});

describe('page', () => {
  it('slices zero-based pages', () => {
    const items = Array.from({ length: 60 }, (_, i) => i);
    expect(page(items, { pageSize: 25, currentPage: 2 })).toEqual(items.slice(50));
    expect(page(items, { pageSize: 25, currentPage: 3 })).toEqual([]);
  });
});

describe('echo', () => {
  it('returns a short value whole and cuts a long one to 40 characters and an ellipsis', () => {
    expect(echo('DELIVERED')).toBe('DELIVERED');
    expect(echo('😀'.repeat(41))).toBe(`${'😀'.repeat(40)}…`);
    expect(echo('x'.repeat(1_000_000))).toHaveLength(41);
  });
});
