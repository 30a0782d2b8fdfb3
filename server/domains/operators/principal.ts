import type { OpsRole } from '../../../protocol/ops-console';

/** An operator as the console knows it during a request. */
export interface OperatorPrincipal {
  id: number;
  name: string;
  roles: OpsRole[];
}
