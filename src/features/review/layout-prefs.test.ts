import { afterEach, describe, expect, it } from 'vitest';
import { loadLayout, saveLayout } from './layout-prefs';

describe('the review layout kept on this device', () => {
  afterEach(() => window.localStorage.clear());

  it('starts with the list shown', () => {
    expect(loadLayout()).toEqual({ listCollapsed: false });
  });

  it('remembers a collapsed list, and a list shown again', () => {
    saveLayout({ listCollapsed: true });
    expect(loadLayout()).toEqual({ listCollapsed: true });
    saveLayout({ listCollapsed: false });
    expect(loadLayout()).toEqual({ listCollapsed: false });
  });

  it('reads anything else stored under its key as the default', () => {
    for (const stored of ['not json', '"true"', 'null', '{"listCollapsed":"yes"}']) {
      window.localStorage.setItem('dds.review.layout', stored);
      expect(loadLayout(), stored).toEqual({ listCollapsed: false });
    }
  });
});
