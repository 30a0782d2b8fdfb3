import type { ReactElement } from 'react';

export interface LegalSection {
  h: string;
  p: string[];
}

/** A long text with headings (agreements, policies). */
export function LegalDoc({
  intro,
  meta,
  sections,
}: {
  intro?: string;
  meta?: string;
  sections: readonly LegalSection[];
}): ReactElement {
  return (
    <article className="legal">
      {meta ? <p className="legal-meta">{meta}</p> : null}
      {intro ? <p>{intro}</p> : null}
      {sections.map((s) => (
        <section key={s.h}>
          <h2>{s.h}</h2>
          {s.p.map((para) => (
            <p key={para}>{para}</p>
          ))}
        </section>
      ))}
    </article>
  );
}
