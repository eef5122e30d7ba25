import { describe, expect, it } from 'vitest';
import { anyoneCalled } from '../../src/bot/anyone-called.js';

describe('anyoneCalled', () => {
  it('reads a question that only calls for someone as a call for a person', () => {
    expect(anyoneCalled('hello? anybody?')).toBe(true);
    expect(anyoneCalled('iemand?')).toBe(true);
    expect(anyoneCalled("allo ? il y a quelqu'un ?")).toBe(true);
    expect(anyoneCalled("quelqu'un là ?")).toBe(true);
    expect(anyoneCalled('Hallo? Is daar iemand?')).toBe(true);
    expect(anyoneCalled('is there anybody there?')).toBe(true);
  });

  it('reads a clause that only says "transfer me" as a request', () => {
    expect(anyoneCalled('transfer me')).toBe(true);
    expect(anyoneCalled('ok, transfer me please!')).toBe(true);
  });

  it('does not read someone asked for information, or a transfer of money, as a call', () => {
    expect(anyoneCalled('can someone tell me where my parcel is?')).toBe(false);
    expect(anyoneCalled('anybody know when you close?')).toBe(false);
    expect(anyoneCalled('please transfer me the money for the lamp')).toBe(false);
    expect(anyoneCalled('someone called me yesterday')).toBe(false);
  });
});
