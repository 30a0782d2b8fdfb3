import { Link } from '@tanstack/react-router';
import type { ReactElement, ReactNode } from 'react';
import { Icon, type IconName } from './Icon';

export function ListGroup({ title, children }: { title?: string; children: ReactNode }): ReactElement {
  return (
    <section className="list-group">
      {title ? <h2 className="list-title">{title}</h2> : null}
      <ul className="list">{children}</ul>
    </section>
  );
}

interface ItemBody {
  icon?: IconName | undefined;
  label: string;
  value?: ReactNode;
  sub?: string | undefined;
}

function Body({ icon, label, value, sub, chevron }: ItemBody & { chevron: boolean }): ReactElement {
  return (
    <>
      {icon ? (
        <span className="list-icon">
          <Icon name={icon} size={20} />
        </span>
      ) : null}
      <span className="list-text">
        <span className="list-label">{label}</span>
        {sub ? <span className="list-sub">{sub}</span> : null}
      </span>
      {value !== undefined ? <span className="list-value">{value}</span> : null}
      {chevron ? <Icon name="chevron" size={18} className="list-chevron" /> : null}
    </>
  );
}

/** A row: a link (`to`), a button (`onClick`) or plain (`end` holds a control such as a switch). */
export function ListItem(
  props: ItemBody & {
    to?: string;
    search?: Record<string, string | number>;
    onClick?: () => void;
    end?: ReactNode;
  },
): ReactElement {
  const { to, search, onClick, end, ...body } = props;
  if (to) {
    return (
      <li>
        <Link to={to} search={search} className="list-item is-action">
          <Body {...body} chevron />
        </Link>
      </li>
    );
  }
  if (onClick) {
    return (
      <li>
        <button type="button" className="list-item is-action" onClick={onClick}>
          <Body {...body} chevron />
        </button>
      </li>
    );
  }
  return (
    <li className="list-item">
      <Body {...body} chevron={false} />
      {end}
    </li>
  );
}
