// What a draft check reports: which step, a stable code and a sentence for the writer to act on.
export interface DraftProblem {
  step: number;
  code: string;
  message: string;
}
