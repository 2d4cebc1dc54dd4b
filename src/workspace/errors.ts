/**
 * A request the workspace store refuses, with a message fit for an operator. `kind` lets callers map
 * it without parsing text: the CLI exits non-zero either way; an HTTP caller would not reach these.
 */
export class WorkspaceError extends Error {
  override readonly name = 'WorkspaceError';
  constructor(
    readonly kind: 'invalid' | 'not_found' | 'conflict',
    message: string,
  ) {
    super(message);
  }
}
