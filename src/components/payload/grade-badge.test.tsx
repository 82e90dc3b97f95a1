import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { GradeBadge, gradeTone, ScoreBadge, scoreTone } from './grade-badge';

describe('grades and scores', () => {
  it('each grade has its own colour, and says its grade in words', () => {
    render(
      <>
        {['A', 'B', 'C', 'D'].map((g) => (
          <GradeBadge key={g} grade={g} />
        ))}
      </>,
    );
    const classes = ['A', 'B', 'C', 'D'].map((g) => screen.getByText(`grade ${g}`).className);
    expect(new Set(classes).size).toBe(4);
    expect(gradeTone('F')).toBe('D');
    expect(gradeTone('<script>')).toBe('other');
  });

  it('a score takes the colour of the grade it earns (the service’s boundaries: 0.9, 0.8, 0.7)', () => {
    expect([0.95, 0.9, 0.85, 0.75, 0.69, Number.NaN].map(scoreTone)).toEqual(['A', 'A', 'B', 'C', 'D', 'other']);
    render(<ScoreBadge score={0.903} />);
    expect(screen.getByText('quality 0.903')).toHaveAttribute('data-tone', 'A');
  });
});
