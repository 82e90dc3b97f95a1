import { Link, type LinkProps } from '@tanstack/react-router';

/** A breadcrumb trail: links, then the current page's name. */
export function Breadcrumb({ trail, current }: { trail: readonly { label: string; link: LinkProps }[]; current: string }) {
  return (
    <nav aria-label="Breadcrumb" className="mb-2 text-sm">
      {trail.map((step) => (
        <span key={step.label}>
          <Link {...step.link} className="text-brand-600 underline dark:text-brand-100">
            {step.label}
          </Link>{' '}
          /{' '}
        </span>
      ))}
      {current}
    </nav>
  );
}
