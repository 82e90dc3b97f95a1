import { act, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useFillWindow } from './use-fill-window';

function Filler() {
  const ref = useFillWindow<HTMLDivElement>();
  return <div ref={ref} data-testid="filler" />;
}

describe('useFillWindow', () => {
  afterEach(() => vi.restoreAllMocks());

  it('says where the element starts on the page, and again when the window changes', () => {
    let top = 120;
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(() => ({ top }) as DOMRect);
    const { getByTestId } = render(<Filler />);
    const element = getByTestId('filler');
    expect(element.style.getPropertyValue('--fill-top')).toBe('120px');
    // A banner above the page pushed it down.
    top = 184;
    act(() => void window.dispatchEvent(new Event('resize')));
    expect(element.style.getPropertyValue('--fill-top')).toBe('184px');
  });
});
