import { describe, expect, it } from 'vitest';
import { toBotCanned } from '../../src/bridge/business-hours-cache.js';

describe('canned responses as the brain gets them', () => {
  it('reads the type whatever its case (issue 26): BUTTONS and Buttons are a menu', () => {
    for (const type of ['buttons', 'BUTTONS', 'Buttons']) {
      expect(toBotCanned({ id: '501', type, data: { buttons: [{ id: 'b1', title: 'Opening hours' }] } })?.type).toBe('buttons');
    }
    expect(toBotCanned({ id: '9', type: 'Survey' })).toBeUndefined();
  });
});
