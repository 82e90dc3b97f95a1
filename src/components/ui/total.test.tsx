import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { OVER_RANGE } from '../../lib/money';
import { Total } from './total';

describe('Total', () => {
  it('shows the cents, the exact micro-dollars as the hover and, for assistive technology, in the text', () => {
    const { container } = render(<Total micros={34_500} />);
    expect(screen.getByTitle('$0.034500')).toHaveTextContent(/^\$0\.03$/);
    expect(container).toHaveTextContent('$0.03 (exactly $0.034500)');
  });

  it('rounds half a cent away from zero, negative amounts too', () => {
    render(
      <>
        <Total micros={5_000} />
        <Total micros={-5_000} />
      </>,
    );
    expect(screen.getByTitle('$0.005000')).toHaveTextContent(/^\$0\.01$/);
    expect(screen.getByTitle('-$0.005000')).toHaveTextContent(/^-\$0\.01$/);
  });

  it('says nothing twice when the cents are the exact amount, nor past the exact range', () => {
    const { container } = render(
      <>
        <Total micros={1_230_000} />
        <Total micros={OVER_RANGE} />
      </>,
    );
    expect(screen.getByTitle('$1.230000')).toHaveTextContent(/^\$1\.23$/);
    expect(container).not.toHaveTextContent('exactly');
    expect(container).toHaveTextContent('over $9,007,199,254');
  });
});
