// One way for every store agent's writer to try the optional model first: write with it, run the same
// checks the template's work must pass, and on a model failure or a failed check say why, so the step
// falls back to its grounded templates and the run's notes tell the caller which writer wrote what.
import type { StepContext } from './agent-definition.ts';
import { ModelWriterFailure, type ModelWriterConfig } from './chat-completion.ts';

export type ModelAttempt<T> =
  /** No model is configured. */
  | { kind: 'none' }
  | { kind: 'written'; result: T; model: string }
  /** The model failed or its work failed the checks; `note` says which and that the templates wrote `what` instead. */
  | { kind: 'fallback'; note: string };

export interface AttemptOptions<T> {
  write: (llm: ModelWriterConfig, signal: AbortSignal) => Promise<T>;
  /** What is wrong with the model's work, in words for the run's notes; empty when it passes. */
  problems: (result: T) => string[];
  /** How the notes name the work: `noun` (e.g. "draft") and what the templates wrote instead (e.g. "it"). */
  noun: string;
  instead: string;
}

export async function attemptModel<T>(
  ctx: Pick<StepContext<never>, 'deps' | 'signal'>,
  options: AttemptOptions<T>,
): Promise<ModelAttempt<T>> {
  const llm = ctx.deps.config.agents.llm;
  if (!llm) return { kind: 'none' };
  try {
    const result = await options.write(llm, ctx.signal);
    const problems = options.problems(result);
    if (!problems.length) return { kind: 'written', result, model: llm.model };
    return {
      kind: 'fallback',
      note: `The model's ${options.noun} failed the checks (${problems.slice(0, 3).join('; ')}); the grounded template writer wrote ${options.instead} instead.`,
    };
  } catch (error) {
    if (!(error instanceof ModelWriterFailure)) throw error;
    return {
      kind: 'fallback',
      note: `The model writer failed (${error.reason}); the grounded template writer wrote ${options.instead} instead.`,
    };
  }
}
