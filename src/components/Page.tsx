import { type ReactElement, type ReactNode, useEffect } from 'react';
import { NavBar } from './NavBar';
import { usePageChrome } from './page-chrome';

/** A screen: navigation bar, scrolling body, and the document title. */
export function Page({
  title,
  left,
  right,
  children,
  className,
}: {
  title: string;
  left?: 'back' | 'menu' | 'none';
  right?: ReactNode;
  children: ReactNode;
  className?: string;
}): ReactElement {
  const { showTitle } = usePageChrome();
  useEffect(() => showTitle(title), [showTitle, title]);
  return (
    <div className="page">
      <NavBar title={title} left={left ?? 'back'} right={right} />
      <main className={className ? `page-body ${className}` : 'page-body'}>{children}</main>
    </div>
  );
}
