// The handler registry: each operation's module, at src/handlers/<first tag>/<operationId in kebab-case>.ts,
// imported as a namespace named after the operation, its `handle` mapped to the operationId. Emitted only for
// the repository's own contract, so the file of an operation is found from its name alone and tsc fails here
// when one is missing or misnamed.
import type { SpecModel } from './model.ts';
import { identifier } from './naming.ts';

export const kebabCase = (operationId: string): string => operationId.replace(/_/g, '-');

export function emitRegistry(model: SpecModel, header: string, handlersDir: string): string {
  const ops = model.operations
    .filter((op) => op.operationId !== undefined)
    .map((op) => {
      const tag = op.tags[0];
      if (!tag)
        throw new Error(`operation ${op.operationId} has no tag: its handler folder is named after its first tag`);
      return {
        key: op.operationId!,
        id: identifier(op.operationId!),
        file: `${handlersDir}/${tag}/${kebabCase(op.operationId!)}.ts`,
      };
    });
  const imports = ops.map((op) => `import * as ${op.id} from '${op.file}';`);
  const entries = ops.map((op) => `  ${op.key}: ${op.id}.handle,`);
  return `${header}
import type { HandlerContext } from '${handlersDir}/context.ts';
import type { Handlers } from './handlers.ts';
${imports.join('\n')}

export const handlers: Handlers<HandlerContext> = {
${entries.join('\n')}
};
`;
}
