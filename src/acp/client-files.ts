// Text files read and written through the editor (fs/read_text_file, fs/write_text_file): the model sees the
// user's unsaved changes, and the editor shows (and can undo) the agent's changes in its buffers.
import { stat } from "node:fs/promises";
import type { AgentContext, ClientCapabilities } from "@agentclientprotocol/sdk";
import type { TextFileAccess } from "../tools/index.js";

/** Larger files are read and edited on disk: the editor's answer must stay well within a protocol message. */
export const MAX_EDITOR_TEXT_BYTES = 4 * 1024 * 1024;

/** The editor's file access when it offers both reading and writing; undefined otherwise (loom uses the disk). */
export function clientFiles(client: AgentContext, capabilities: ClientCapabilities, sessionId: () => string): TextFileAccess | undefined {
	if (capabilities.fs?.readTextFile !== true || capabilities.fs.writeTextFile !== true) return undefined;
	const options = (signal: AbortSignal | undefined) => (signal ? { cancellationSignal: signal, stopWaitingOnCancel: true } : undefined);
	return {
		async readText(path, signal) {
			// A message that big would end the connection; the editor holds no unsaved changes worth it.
			if ((await stat(path)).size > MAX_EDITOR_TEXT_BYTES) return undefined;
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
