// The start of an HTTP body, read as it arrives up to a limit; the rest is never read, so a server cannot make
// loom hold more than it asked for.

/** Reads a body as text until `limit` bytes (or a little past, to the end of a chunk), then lets the connection go. */
export async function readBodyStart(response: Response, limit: number): Promise<string> {
	const reader = response.body?.getReader();
	if (!reader) return "";
	const decoder = new TextDecoder();
	let text = "";
	let bytes = 0;
	try {
		while (bytes < limit) {
			const { done, value } = await reader.read();
			if (done) break;
			bytes += value.length;
			text += decoder.decode(value, { stream: true });
		}
		return text + decoder.decode();
	} finally {
		reader.cancel().catch(() => {});
	}
}
