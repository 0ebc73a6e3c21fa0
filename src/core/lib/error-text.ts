// The words of whatever was thrown: an Error's message, or the value itself as text.

/** The message of an Error (its name when the message is empty), or anything else thrown as text. */
export function errorMessage(error: unknown): string {
	return error instanceof Error ? error.message || error.name : String(error);
}

/** An error's message with its cause's, when the message does not already hold it ("fetch failed: connect ECONNREFUSED 127.0.0.1:1"). */
export function errorMessageWithCause(error: unknown): string {
	if (!(error instanceof Error)) return String(error);
	const cause = (error as { cause?: unknown }).cause;
	const causeText = cause instanceof Error ? cause.message : undefined;
	return causeText && !error.message.includes(causeText) ? `${error.message}: ${causeText}` : error.message;
}
