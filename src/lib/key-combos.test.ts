import { describe, expect, it } from 'vitest';
import { comboMatcher, keyName, typedInField } from './key-combos';

const key = (code: string, mods: Partial<Pick<KeyboardEvent, 'shiftKey' | 'ctrlKey' | 'metaKey' | 'altKey'>> = {}, altGraph = false) =>
  ({
    code,
    key: code,
    shiftKey: false,
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    ...mods,
    getModifierState: (m: string) => m === 'AltGraph' && altGraph,
  }) as unknown as KeyboardEvent;

describe('comboMatcher', () => {
  const match = comboMatcher([
    ['j, down', 'next'],
    ['shift+a', 'adoptAll'],
    ['a', 'adopt'],
    ['z, ctrl+z, meta+z', 'undo'],
    ['home', 'first'],
  ] as const);

  it('matches by physical key, aliases included', () => {
    expect(match(key('KeyJ'))).toBe('next');
    expect(match(key('ArrowDown'))).toBe('next');
    expect(match(key('Home'))).toBe('first');
    expect(match(key('KeyK'))).toBeUndefined();
  });

  it('needs exactly the modifiers a combination names', () => {
    expect(match(key('KeyA'))).toBe('adopt');
    expect(match(key('KeyA', { shiftKey: true }))).toBe('adoptAll');
    expect(match(key('KeyA', { ctrlKey: true }))).toBeUndefined();
    expect(match(key('KeyZ', { ctrlKey: true }))).toBe('undo');
    expect(match(key('KeyZ', { metaKey: true }))).toBe('undo');
    expect(match(key('KeyZ', { ctrlKey: true, shiftKey: true }))).toBeUndefined();
    expect(match(key('KeyJ', { altKey: true }))).toBeUndefined();
  });

  it('leaves AltGr characters alone unless the combination names Alt or Ctrl', () => {
    expect(match(key('KeyA', {}, true))).toBeUndefined();
    expect(match(key('KeyZ', { ctrlKey: true }, true))).toBe('undo');
  });

  it('names keys as the combinations write them', () => {
    expect(keyName('Digit0')).toBe('0');
    expect(keyName('Numpad7')).toBe('7');
    expect(keyName('ArrowLeft')).toBe('arrowleft');
    expect(keyName('left')).toBe('arrowleft');
  });
});

describe('typedInField', () => {
  const on = (element: HTMLElement) => ({ target: element }) as unknown as KeyboardEvent;
  it('is true in fields and field-like roles, false elsewhere', () => {
    expect(typedInField(on(document.createElement('input')))).toBe(true);
    expect(typedInField(on(document.createElement('textarea')))).toBe(true);
    const radio = document.createElement('div');
    radio.setAttribute('role', 'radio');
    expect(typedInField(on(radio))).toBe(true);
    expect(typedInField(on(document.createElement('button')))).toBe(false);
    expect(typedInField(on(document.body))).toBe(false);
  });
  it('is false in a field the page has hidden (a closed picker keeps the focus until it is removed)', () => {
    const closed = document.createElement('form');
    closed.hidden = true;
    const input = document.createElement('input');
    closed.append(input);
    expect(typedInField(on(input))).toBe(false);
    closed.hidden = false;
    expect(typedInField(on(input))).toBe(true);
  });
});
