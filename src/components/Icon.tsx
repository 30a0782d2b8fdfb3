import type { ReactElement } from 'react';

/** Stroke icons (24px grid, currentColor). Decorative unless a label is given. */
const PATHS = {
  menu: 'M4 7h16M4 12h16M4 17h16',
  back: 'M15 5l-7 7 7 7',
  chevron: 'M9 5l7 7-7 7',
  close: 'M6 6l12 12M18 6L6 18',
  eye: 'M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12zm10 3a3 3 0 100-6 3 3 0 000 6z',
  eyeOff:
    'M3 3l18 18M10.6 5.1A10.7 10.7 0 0112 5c6.4 0 10 7 10 7a17.6 17.6 0 01-3.2 4.2M6.6 6.6C3.8 8.4 2 12 2 12s3.6 7 10 7a9.9 9.9 0 005.4-1.6M9.9 9.9a3 3 0 004.2 4.2',
  shield: 'M12 3l8 3v6c0 4.6-3.4 8.4-8 9-4.6-.6-8-4.4-8-9V6l8-3zm-3.5 9l2.5 2.5 4.5-5',
  settings:
    'M12 15a3 3 0 100-6 3 3 0 000 6zm7.4-3a7.5 7.5 0 00-.1-1.3l2-1.6-2-3.4-2.4 1a7.4 7.4 0 00-2.2-1.3L14.3 3h-4l-.4 2.4a7.4 7.4 0 00-2.2 1.3l-2.4-1-2 3.4 2 1.6a7.5 7.5 0 000 2.6l-2 1.6 2 3.4 2.4-1a7.4 7.4 0 002.2 1.3l.4 2.4h4l.4-2.4a7.4 7.4 0 002.2-1.3l2.4 1 2-3.4-2-1.6c.1-.4.1-.9.1-1.3z',
  user: 'M12 12a4 4 0 100-8 4 4 0 000 8zm-7 9a7 7 0 0114 0',
  userPlus: 'M10 12a4 4 0 100-8 4 4 0 000 8zm-7 9a7 7 0 0114 0M19 8v6M16 11h6',
  login: 'M15 3h4a2 2 0 012 2v14a2 2 0 01-2 2h-4M10 17l5-5-5-5M15 12H3',
  logout: 'M9 21H5a2 2 0 01-2-2V5a2 2 0 012-2h4M16 17l5-5-5-5M21 12H9',
  globe:
    'M12 21a9 9 0 100-18 9 9 0 000 18zM3 12h18M12 3c2.5 2.7 3.8 5.7 3.8 9s-1.3 6.3-3.8 9c-2.5-2.7-3.8-5.7-3.8-9S9.5 5.7 12 3z',
  lock: 'M6 11h12v10H6zM8 11V7a4 4 0 018 0v4',
  key: 'M7 16a4 4 0 100-8 4 4 0 000 8zM11 12h10M18 12v3M21 12v2',
  moon: 'M20 14.5A8.5 8.5 0 019.5 4a8.5 8.5 0 1010.5 10.5z',
  sun: 'M12 17a5 5 0 100-10 5 5 0 000 10zM12 1v2M12 21v2M4.2 4.2l1.4 1.4M18.4 18.4l1.4 1.4M1 12h2M21 12h2M4.2 19.8l1.4-1.4M18.4 5.6l1.4-1.4',
  info: 'M12 21a9 9 0 100-18 9 9 0 000 18zM12 11v6M12 7.5v.5',
  trash: 'M4 7h16M9 7V4h6v3M6 7l1 14h10l1-14',
  copy: 'M9 9h11v11H9zM5 15H4V4h11v1',
  home: 'M3 11l9-7 9 7M5 10v10h5v-6h4v6h5V10',
  spot: 'M4 19V9M10 19V5M16 19v-7M22 19H2',
  option: 'M3 17l6-6 4 4 8-8M15 7h6v6',
  lever: 'M4 20L20 4M14 4h6v6M4 14v6h6',
  finance: 'M12 3v18M17 7H9.5a3 3 0 000 6h5a3 3 0 010 6H6',
  assets: 'M3 7h18v13H3zM3 7l3-4h12l3 4M16 13h2',
  tag: 'M3 12V3h9l9 9-9 9-9-9zM7.5 7.5h.01',
  check: 'M5 12l5 5L20 7',
  alert: 'M12 3l10 18H2L12 3zM12 10v5M12 18v.5',
  document: 'M6 2h9l5 5v15H6zM14 2v6h6M9 13h8M9 17h8',
  phone: 'M7 2h10v20H7zM11 18h2',
  mail: 'M3 5h18v14H3zM3 6l9 7 9-7',
  layers: 'M12 3l9 5-9 5-9-5 9-5zM3 13l9 5 9-5M3 17l9 5 9-5',
  refresh: 'M20 11a8 8 0 10-2.3 5.7M20 4v7h-7',
  clock: 'M12 21a9 9 0 100-18 9 9 0 000 18zM12 7v5l3 3',
  star: 'M12 3l2.8 5.7 6.2.9-4.5 4.4 1 6.2L12 17.3 6.5 20.2l1-6.2L3 9.6l6.2-.9L12 3z',
  search: 'M11 18a7 7 0 100-14 7 7 0 000 14zM21 21l-5-5',
  sort: 'M8 4v16M4 8l4-4 4 4M16 20V4M12 16l4 4 4-4',
  pulse: 'M2 12h4l3-8 6 16 3-8h4',
  plus: 'M12 5v14M5 12h14',
  minus: 'M5 12h14',
  card: 'M3 6h18v12H3zM3 10h18M7 15h4',
} as const;

export type IconName = keyof typeof PATHS;

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
      <path d={PATHS[name]} />
    </svg>
  );
}
