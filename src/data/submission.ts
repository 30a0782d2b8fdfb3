import { useRef } from 'react';
import { createSubmission, type Submission } from '../../core/submission';

/** A form's submission id keeper for the life of the page (see core/submission.ts). */
export function useSubmission(): Submission {
  const ref = useRef<Submission | null>(null);
  ref.current ??= createSubmission();
  return ref.current;
}
