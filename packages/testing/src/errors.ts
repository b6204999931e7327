/** The one error class of `@x/testing`: a bad option or argument, named, thrown before anything starts. */
export class StubArgumentError extends Error {
  override readonly name = 'StubArgumentError';
  readonly code = 'INVALID_ARGUMENT';
  /** The option or argument at fault, e.g. `port`, `accounts.carol.address`, `operationId`. */
  readonly parameter: string;

  constructor(parameter: string, message: string) {
    super(`${parameter}: ${message}`);
    this.parameter = parameter;
  }
}
