/**
 * Options for a request to the editor made on behalf of a run: when the run is stopped, the request is cancelled
 * (the editor is told) and loom stops waiting for its answer.
 */
export function cancelledWith(signal: AbortSignal | undefined): { cancellationSignal: AbortSignal; stopWaitingOnCancel: true } | undefined {
	return signal ? { cancellationSignal: signal, stopWaitingOnCancel: true } : undefined;
}
