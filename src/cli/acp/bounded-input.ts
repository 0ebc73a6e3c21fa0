// What the editor sends, bounded as RPC mode bounds its commands: a message over the limit is skipped, and its
// request (its id read from the message's start) is answered with an error; the connection goes on. The protocol
// library, left to itself, ends the connection at its own limit (32 MB), and loom with it, without a word.
import { PassThrough } from "node:stream";
import { MAX_LINE_CHARS, readLines } from "../rpc/index.js";

/** What a message of MAX_LINE_CHARS characters can take in UTF-8: the library's own limit is set above it. */
export const MAX_MESSAGE_BYTES = MAX_LINE_CHARS * 3;

/** JSON-RPC's code for a message that is no valid request. */
const INVALID_REQUEST = -32600;

/** The messages of `input` within the limit, line by line; `answer` writes the error line for each one skipped. */
export function boundedInput(input: NodeJS.ReadableStream, answer: (line: string) => void): NodeJS.ReadableStream {
	const messages = new PassThrough();
	void readLines(input, MAX_LINE_CHARS, {
		line: (text) => messages.write(`${text}\n`),
		tooLong: (chars, head) => {
			const message = `A message of over ${chars} characters was skipped; messages are limited to ${MAX_LINE_CHARS} (send large images as smaller copies).`;
			answer(`${JSON.stringify({ jsonrpc: "2.0", id: requestId(head), error: { code: INVALID_REQUEST, message } })}\n`);
		},
	}).then(() => messages.end());
	return messages;
}

/**
 * The id of the request a message starts: before its `params` only scalar members (jsonrpc, id, method) can
 * come, so an `"id":` there is the request's own. Null when it cannot be read (the id comes after the params).
 */
export function requestId(head: string): number | string | null {
	const before = head.split('"params"')[0]!;
	const match = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/.exec(before);
	if (!match) return null;
	try {
		return JSON.parse(match[1]!) as number | string;
	} catch {
		return null;
	}
}
