import type { ReactElement, ReactNode } from 'react';
import { Icon, type IconName } from '../Icon';

/** A list with nothing in it yet: an icon, one line, and maybe what to do. */
export function EmptyState({
  icon,
  text,
  children,
}: {
  icon: IconName;
  text: string;
  children?: ReactNode;
}): ReactElement {
  return (
    <div className="assets-empty" data-testid="empty">
      <span className="assets-empty-icon">
        <Icon name={icon} size={26} />
      </span>
      <p>{text}</p>
      {children}
    </div>
  );
}
