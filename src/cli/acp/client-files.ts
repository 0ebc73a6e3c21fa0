// Text files read and written through the editor (fs/read_text_file, fs/write_text_file): the model sees the
// user's unsaved changes, and the editor shows (and can undo) the agent's changes in its buffers.
import { closeSync } from "node:fs";
import type { AgentContext, ClientCapabilities } from "@agentclientprotocol/sdk";
import { openRegularFile, formatSize, errorMessage } from "../../core/index.js";
import type { TextFileAccess } from "../../tools/index.js";
import { cancelledWith } from "./acp-ui.js";

/** Larger files are read and edited on disk: the editor's answer must stay well within a protocol message. */
export const MAX_EDITOR_TEXT_BYTES = 4 * 1024 * 1024;

/** The editor's file access when it offers both reading and writing; undefined otherwise (loom uses the disk). */
export function clientFiles(client: AgentContext, capabilities: ClientCapabilities, sessionId: () => string): TextFileAccess | undefined {
	if (capabilities.fs?.readTextFile !== true || capabilities.fs.writeTextFile !== true) return undefined;
	return {
		async readText(path, signal) {
			// Only a regular file's text is asked for (what else is there is read, and refused, on disk), and not a
			// big one: a message that big would end the connection; the editor holds no unsaved changes worth it.
			if (!isEditorSized(path)) return undefined;
			let content: string;
			try {
				({ content } = await client.request("fs/read_text_file", { sessionId: sessionId(), path }, cancelledWith(signal)));
			} catch (error) {
				throw new Error(`The editor could not read ${path}: ${errorMessage(error)}`);
			}
			if (Buffer.byteLength(content) > MAX_EDITOR_TEXT_BYTES) {
				throw new Error(`The editor's text of ${path} is over the ${formatSize(MAX_EDITOR_TEXT_BYTES)} loom takes from the editor; save it and read it again.`);
			}
			return content;
		},
		async writeText(path, text, signal) {
			try {
				await client.request("fs/write_text_file", { sessionId: sessionId(), path, content: text }, cancelledWith(signal));
			} catch (error) {
				throw new Error(`The editor could not write ${path}: ${errorMessage(error)}`);
			}
		},
	};
}

/** A regular file (checked without blocking on a FIFO) small enough to ask the editor for. */
function isEditorSized(path: string): boolean {
	let file: ReturnType<typeof openRegularFile>;
	try {
		file = openRegularFile(path);
	} catch {
		return false;
	}
	closeSync(file.fd);
	return file.stat.size <= MAX_EDITOR_TEXT_BYTES;
}
