import { type ReactElement, type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { NavBar } from './NavBar';

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
  const { t } = useTranslation();
  const brand = t('brand');
  useEffect(() => {
    document.title = title && title !== brand ? `${title} · ${brand}` : brand;
  }, [title, brand]);
  return (
    <div className="page">
      <NavBar title={title} left={left ?? 'back'} right={right} />
      <main className={className ? `page-body ${className}` : 'page-body'}>{children}</main>
    </div>
  );
}
