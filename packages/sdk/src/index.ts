// The package's public surface: the generated client (one method per operation, its argument and result
// types, ApiProblemError), the retrying transport it sends through, cursor iteration, and the contract's types.
export * from './generated/sdk.ts';
export { retryAfterMs, retryingFetch, type OperationBinding } from './generated/sdk-runtime.ts';
export type { components, operations, paths } from './generated/types.ts';
export { items, pages } from './pages.ts';
