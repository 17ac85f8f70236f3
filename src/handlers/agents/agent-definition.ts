// What a store agent is: a versioned definition in this repository (its input schema, what it produces, the
// connectors it needs) and its steps, run in order by the run engine (src/handlers/agents/run-job.ts).
// A step either finishes (its result merged into the run's state, so a resumed run skips it) or asks the
// run to wait for a person; a waiting step runs again when the run resumes and decides again.
import type { z } from 'zod';
import type { RequiredAction, ResourceRef } from './agent-runs-data.ts';
import type { Queryable } from '../../db/queryable.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';

export interface StepContext<I> {
  deps: Deps;
  /** Who started the run: the run acts with their rights. */
  actor: Actor;
  runId: string;
  input: I;
  /** The results of the steps before this one (and this step's own saved effects, on a retry). */
  state: Record<string, unknown>;
  /** Merges `patch` into the run's state with `tx`: call it in the transaction of the step's effect. */
  save(tx: Queryable, patch: Record<string, unknown>): Promise<void>;
  signal: AbortSignal;
}

export interface StepDone {
  done: true;
  state?: Record<string, unknown>;
  /** Said on the run for the caller to read, e.g. that the writer fell back. */
  notes?: string[];
  resources?: ResourceRef[];
  /** Results that are not resources, merged into the run's output (its `resources` stay). */
  output?: Record<string, unknown>;
}

export interface StepWait {
  done: false;
  action: Omit<RequiredAction, 'expires_at'>;
  /** From the moment the run starts waiting at this step. */
  timeoutSeconds: number;
  timeoutCode: 'authorization_timeout' | 'approval_timeout';
  timeoutMessage: string;
}

export interface AgentStep<I> {
  name: string;
  run(ctx: StepContext<I>): Promise<StepDone | StepWait>;
}

export interface AgentDefinition<I = Record<string, unknown>> {
  slug: string;
  name: string;
  description: string;
  category: string;
  version: string;
  input: z.ZodType<I>;
  produces: string[];
  requiredConnectors: string[];
  /** Checks run_agent makes before queueing (an ApiError refuses the run): what no step could fix. */
  precheck?(deps: Deps, actor: Actor, input: I): Promise<void>;
  steps: AgentStep<I>[];
}
