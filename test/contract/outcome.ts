// Checks one SDK call's outcome against the contract: the status is declared for the operation,
// the media type is the declared one, and the body validates against the declared schema.
import { expect } from 'vitest';
import type { PrismReport } from '../helpers/prism.ts';
import type { Contract } from './contract.ts';

export interface Outcome {
  status: number;
  contentType: string | null;
  /** The SDK's result, or the `problem` of the ApiProblemError it threw. */
  body: unknown;
  threw: boolean;
  prismReports: PrismReport[];
}

export function checkOutcome(contract: Contract, operationId: string, outcome: Outcome): void {
  const { status, body } = outcome;
  const declared = contract.responseFor(operationId, status);
  const keys = contract.operation(operationId).responses.map((r) => r.key);
  expect(
    declared,
    `${operationId} answered ${status}, not among the declared ${keys.join(', ')}: ${JSON.stringify(body)}`,
  ).toBeDefined();
  // A declared 3xx comes back as the SDK's Redirect value, not as an error.
  expect(
    outcome.threw,
    `${operationId}: the SDK throws ApiProblemError exactly for 1xx, 4xx and 5xx (status ${status})`,
  ).toBe(status < 200 || status >= 400);
  if (!declared) return;
  if (status >= 300 && status < 400) {
    expect(body, `${operationId} ${status}: the SDK returns the redirect`).toMatchObject({ redirect: true, status });
    return;
  }
  if (declared.content.size === 0) {
    expect(body ?? '', `${operationId} ${status} declares no body`).toSatisfy(
      (b: unknown) => b === '' || (typeof b === 'object' && b !== null && Object.keys(b).length === 0),
    );
    return;
  }
  const mediaType = (outcome.contentType ?? '').split(';')[0].trim().toLowerCase();
  const pointer = declared.content.get(mediaType);
  expect(
    pointer,
    `${operationId} ${status} sent ${mediaType || 'no content type'}; declared ${[...declared.content.keys()].join(', ')}`,
  ).toBeDefined();
  if (!pointer) return;
  const validate = contract.validator(pointer);
  const valid = validate(body);
  expect(
    valid,
    `${operationId} ${status} body ${JSON.stringify(body)} violates ${pointer}: ${JSON.stringify(validate.errors)}`,
  ).toBe(true);
}
