/** What a confirmation sheet needs from the order machine holding its order (machines' `confirming` states). */
export interface SheetActions {
  /** CONFIRM would be taken now (prices fresh). */
  confirmEnabled: boolean;
  /** Confirming is off because prices are stale: the sheet says so. */
  blocked: boolean;
  onConfirm: () => void;
  onBack: () => void;
}
