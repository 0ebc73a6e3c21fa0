// An ACP client for the tests: the official SDK's client side driving `loom acp` over its stdin and stdout (a real
// child process, or in this process through the CLI's I/O seam), recording every session/update and answering the
// agent's requests as a test says.
import { Writable } from "node:stream";
import {
	type ClientCapabilities,
	type ClientConnection,
	client,
	ndJsonStream,
	type RequestPermissionRequest,
	type RequestPermissionResponse,
	type SessionNotification,
	type SessionUpdate,
} from "@agentclientprotocol/sdk";
import { startLoomInProcess } from "../../support/loom-in-process.js";
import { type LoomResult, type LoomRun, serverFlags, startLoom } from "../../support/loom-process.js";
import type { Workspace } from "../../support/temp-dir.js";
import { waitFor } from "../../support/wait-for.js";

export interface AcpClientOptions {
	/** Flags after `loom acp` (default: the scripted server's model). */
	args?: string[];
	/** Added to loom's environment. */
	env?: Record<string, string>;
	capabilities?: ClientCapabilities;
	/** How the user answers a permission request (default: the request is cancelled). */
	permission?: (request: RequestPermissionRequest) => RequestPermissionResponse | Promise<RequestPermissionResponse>;
	/** fs/read_text_file: the editor's buffer of a path (default: the request fails). */
	readTextFile?: (path: string) => string;
	/** fs/write_text_file. */
	writeTextFile?: (path: string, content: string) => void;
	/** Run `loom acp` in this process (the protocol and the sessions behind it), not the built binary. */
	inProcess?: boolean;
}

export interface AcpTestClient {
	/** The loom process; none when it runs in this process. */
	loom?: LoomRun;
	connection: ClientConnection;
	/** Every session/update so far, in arrival order. */
	notifications: SessionNotification[];
	permissionRequests: RequestPermissionRequest[];
	/** Everything loom wrote on stdout so far. */
	stdout(): string;
	/** The updates of one session so far. */
	updates(sessionId: string): SessionUpdate[];
	/** Resolves with the first update of a session that `match` accepts. */
	waitForUpdate(sessionId: string, match: (update: SessionUpdate) => boolean, what?: string): Promise<SessionUpdate>;
	/** Closes loom's stdin (the editor goes away) and waits for it to exit. */
	close(): Promise<LoomResult>;
}

/** The ends of a `loom acp` the client talks through. */
interface AcpAgentEnds {
	loom?: LoomRun;
	stdin: NodeJS.WritableStream;
	stdout: NodeJS.ReadableStream;
	stdoutText(): string;
	stderr(): string;
	done: Promise<LoomResult>;
}

function startAgent(args: string[], ws: Workspace, options: AcpClientOptions): AcpAgentEnds {
	if (options.inProcess) return startLoomInProcess(args, { ...ws, env: options.env });
	const loom = startLoom(args, { ...ws, openStdin: true, env: options.env });
	return { loom, stdin: loom.child.stdin!, stdout: loom.child.stdout!, stdoutText: loom.stdout, stderr: loom.stderr, done: loom.done };
}

export function startAcpClient(ws: Workspace, openaiBaseUrl: string, options: AcpClientOptions = {}): AcpTestClient {
	const agent = startAgent(["acp", ...(options.args ?? serverFlags(openaiBaseUrl))], ws, options);
	const notifications: SessionNotification[] = [];
	const permissionRequests: RequestPermissionRequest[] = [];
	const app = client({ name: "loom-tests" })
		.onNotification("session/update", ({ params }) => {
			notifications.push(params);
		})
		.onRequest("session/request_permission", async ({ params }) => {
			permissionRequests.push(params);
			return options.permission ? options.permission(params) : { outcome: { outcome: "cancelled" } };
		})
		.onRequest("fs/read_text_file", ({ params }) => {
			if (!options.readTextFile) throw new Error("this client reads no files");
			return { content: options.readTextFile(params.path) };
		})
		.onRequest("fs/write_text_file", ({ params }) => {
			if (!options.writeTextFile) throw new Error("this client writes no files");
			options.writeTextFile(params.path, params.content);
			return {};
		});
	// stdout is collected as text; the protocol reads the same text as bytes.
	const encoder = new TextEncoder();
	const fromLoom = new ReadableStream<Uint8Array>({
		start(controller) {
			agent.stdout.on("data", (chunk: string) => controller.enqueue(encoder.encode(chunk)));
			agent.stdout.on("end", () => controller.close());
		},
	});
	const connection = app.connect(ndJsonStream(Writable.toWeb(agent.stdin as Writable) as WritableStream<Uint8Array>, fromLoom));
	const updates = (sessionId: string) => notifications.filter((n) => n.sessionId === sessionId).map((n) => n.update);
	return {
		loom: agent.loom,
		connection,
		notifications,
		permissionRequests,
		stdout: agent.stdoutText,
		updates,
		async waitForUpdate(sessionId, match, what = "an update") {
			const found = await waitFor(
				() => updates(sessionId).find(match),
				(update) => update !== undefined,
				{ what, show: () => `updates: ${JSON.stringify(updates(sessionId))}\nstderr: ${agent.stderr()}` },
			);
			return found!;
		},
		async close() {
			agent.stdin.end();
			const result = await agent.done;
			connection.close();
			return result;
		},
	};
}

/** `initialize` as an editor sends it. */
export function initialize(acp: AcpTestClient, capabilities: ClientCapabilities = {}) {
	return acp.connection.agent.request("initialize", { protocolVersion: 1, clientCapabilities: capabilities, clientInfo: { name: "tests", version: "1" } });
}

/** The text of a session's agent_message_chunk updates, joined. */
export function answerText(updates: readonly SessionUpdate[]): string {
	return updates
		.map((update) => (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text" ? update.content.text : ""))
		.join("");
}
