// The service's one source of the current time; tests pass a fixed one.

export interface Clock {
  now(): Date;
}
