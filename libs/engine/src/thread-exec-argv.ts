/**
 * The node flags a worker thread is started with: this process's, less `--input-type`. A process
 * started on inline code (`node --input-type=module -e`) passes that flag on, and a thread started
 * from a file refuses it.
 */
export function threadExecArgv(): string[] {
  return process.execArgv.filter((arg) => !arg.startsWith('--input-type'));
}
