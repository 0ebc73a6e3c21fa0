// How a failed request to a server is told apart and put into words (no SDK needed, so it loads with loom).

/** Why a request failed: no answer in time, the connection closed under it, the server refused it, or the
 * transport could not carry it (a remote server gone). */
export type FailureKind = "timeout" | "closed" | "server" | "transport";

export class RequestFailure extends Error {
	constructor(
		readonly kind: FailureKind,
		message: string,
	) {
		super(message);
		this.name = "RequestFailure";
	}
}

export function formatMs(ms: number): string {
	return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
