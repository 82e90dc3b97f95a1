import { act, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FontWarmup } from './font-warmup';

describe('FontWarmup', () => {
  afterEach(() => vi.useRealTimers());

  it('lays out text in every face of the type scale once the browser is idle, hidden from assistive technology', async () => {
    vi.useFakeTimers();
    const { container } = render(<FontWarmup />);
    // Nothing in the page's first render: it waits for idle time.
    expect(container).toBeEmptyDOMElement();
    await act(async () => vi.runAllTimersAsync());
    const box = container.firstElementChild!;
    expect(box).toHaveAttribute('aria-hidden', 'true');
    const faces = [...box.children].map((span) => span.className);
    expect(faces).toHaveLength(2 * 5 * 4);
    expect(faces).toContain('font-mono text-xs font-bold');
    expect(faces).toContain('font-sans text-[0.65rem] font-semibold');
    for (const span of box.children) expect(span.textContent).not.toBe('');
  });
});
