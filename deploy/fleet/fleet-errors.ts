/** Bad input to the fleet command: a flag, a value, a variable or the compose file (exit 2). */
export class FleetInputError extends Error {
  constructor(
    readonly field: string,
    reason: string,
  ) {
    super(`${field}: ${reason}`);
    this.name = 'FleetInputError';
  }
}

/** The fleet started but did not become healthy in time (exit 1). */
export class FleetUnhealthyError extends Error {
  override name = 'FleetUnhealthyError';
}

/** The container engine refused or failed a command (exit 4). */
export class ContainerEngineError extends Error {
  override name = 'ContainerEngineError';
}
