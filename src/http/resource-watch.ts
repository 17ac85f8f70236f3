// What a long-poll (get_operation, get_agent_run, get_connector, ...) waits on: a wake-up when the resource
// it watches changes. Deps holds one; src/handlers/operations/operation-watch.ts implements it with
// LISTEN/NOTIFY, so the platform knows the shape and not the implementation.

export interface AnsweredStates {
  /** The fingerprint last answered to `caller` about resource `id`, if remembered. */
  get(caller: string, id: string): string | undefined;
  set(caller: string, id: string, fingerprint: string): void;
}

export interface ResourceWatch {
  /** Resolves once changes from other processes can reach this one (LISTEN is in place, on PostgreSQL). */
  ready(): Promise<void>;
  /** Resolves when resource `id` may have changed, after `ms`, or when `signal` aborts; never rejects. */
  wait(id: string, ms: number, signal?: AbortSignal): Promise<void>;
  /** Call after the change committed: wakes waiters here and, on PostgreSQL, in every other process. */
  changed(id: string): void;
  /** What each caller was last answered about each resource, as the resource's fingerprint. */
  answered: AnsweredStates;
  /** True once `end()` ran: a long-poll answers with what it read instead of sleeping. */
  readonly ended: boolean;
  /** Shutdown: wakes every waiter now and tells later long-polls not to sleep. */
  end(): void;
  close(): Promise<void>;
}
