import type { ReactElement, ReactNode } from 'react';
import type { IeoProject } from '../../../../protocol/ieo';

/** A project's heading on the details and purchase pages: the coin's mark, its name and symbol, then `children`. */
export function ProjectHead({ project, children }: { project: IeoProject; children?: ReactNode }): ReactElement {
  return (
    <div className="ieo-card-head">
      <span className="ieo-coin" aria-hidden="true">
        {project.coin.slice(0, 4)}
      </span>
      <h2 className="ieo-card-title">
        <span className="ieo-card-name">{project.name}</span>
        <span className="ieo-card-coin">{project.coin}</span>
      </h2>
      {children}
    </div>
  );
}
