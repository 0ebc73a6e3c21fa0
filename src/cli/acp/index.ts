// `loom acp`: serves the Agent Client Protocol on a pair of streams (stdin/stdout) until the client closes them.
// Loaded only on that path: the ACP SDK and its schema library stay out of every other start.
import { Readable, Writable } from "node:stream";
import { ndJsonStream } from "@agentclientprotocol/sdk";
import { stripControls } from "../../core/index.js";
import { type AcpAgentOptions, createAcpAgent } from "./acp-agent.js";
import { boundedInput, MAX_MESSAGE_BYTES } from "./bounded-input.js";

export type { OpenSessionRequest } from "./acp-agent.js";

export interface AcpServerOptions extends Omit<AcpAgentOptions, "log"> {
	input: NodeJS.ReadableStream;
	output: NodeJS.WritableStream;
	/** Where loom says what the client cannot be shown (the editor keeps it as the agent's log). */
	stderr: NodeJS.WritableStream;
}

export interface AcpServer {
	/** Resolves once the client has closed the connection and every session is closed. */
	done: Promise<void>;
	/** Stops every run, closes every session and the connection. */
	close(): Promise<void>;
}

export function serveAcp(options: AcpServerOptions): AcpServer {
	const log = (text: string) => options.stderr.write(`${stripControls(text, { keepTabs: true })}\n`);
	const loom = createAcpAgent({ ...options, log });
	// The library writes each message as one whole line, so an error line written beside it never splits one.
	const input = boundedInput(options.input, (line) => options.output.write(line));
	const stream = ndJsonStream(
		Writable.toWeb(options.output as Writable) as WritableStream<Uint8Array>,
		Readable.toWeb(input as Readable) as ReadableStream<Uint8Array>,
		{ maxMessageBytes: MAX_MESSAGE_BYTES },
	);
	const connection = loom.app.connect(stream);
	const done = connection.closed.then(() => loom.closeAll());
	return {
		done,
		async close() {
			await loom.closeAll();
			connection.close();
			await done;
		},
	};
}
