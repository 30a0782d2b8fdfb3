import type { ReactElement } from 'react';
import { ICON_PATHS } from './icon-paths';

export type IconName = keyof typeof ICON_PATHS;

/** Stroke icons (24px grid, currentColor). Decorative unless a label is given. */
export function Icon({
  name,
  size = 22,
  label,
  className,
}: {
  name: IconName;
  size?: number;
  label?: string;
  className?: string;
}): ReactElement {
  return (
    <svg
      className={className ? `icon ${className}` : 'icon'}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
    >
      {label ? <title>{label}</title> : null}
      <path d={ICON_PATHS[name]} />
    </svg>
  );
}
