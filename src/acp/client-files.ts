// Text files read and written through the editor (fs/read_text_file, fs/write_text_file): the model sees the
// user's unsaved changes, and the editor shows (and can undo) the agent's changes in its buffers.
import type { AgentContext, ClientCapabilities } from "@agentclientprotocol/sdk";
import type { TextFileAccess } from "../tools/index.js";

/** The editor's file access when it offers both reading and writing; undefined otherwise (loom uses the disk). */
export function clientFiles(client: AgentContext, capabilities: ClientCapabilities, sessionId: () => string): TextFileAccess | undefined {
	if (capabilities.fs?.readTextFile !== true || capabilities.fs.writeTextFile !== true) return undefined;
	const options = (signal: AbortSignal | undefined) => (signal ? { cancellationSignal: signal, stopWaitingOnCancel: true } : undefined);
	return {
		async readText(path, signal) {
			try {
				const { content } = await client.request("fs/read_text_file", { sessionId: sessionId(), path }, options(signal));
				return content;
			} catch (error) {
				throw new Error(`The editor could not read ${path}: ${(error as Error).message}`);
			}
		},
		async writeText(path, text, signal) {
			try {
				await client.request("fs/write_text_file", { sessionId: sessionId(), path, content: text }, options(signal));
			} catch (error) {
				throw new Error(`The editor could not write ${path}: ${(error as Error).message}`);
			}
		},
	};
}
