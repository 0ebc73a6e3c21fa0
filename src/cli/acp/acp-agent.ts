// loom as an ACP agent: the protocol's requests on one connection, each session a loom AgentSession opened
// through the caller's `openSession` (the same assembly as the command line's).
import { isAbsolute, join } from "node:path";
import {
	type AgentApp,
	agent,
	type ClientCapabilities,
	type InitializeResponse,
	type McpServer,
	PROTOCOL_VERSION,
	RequestError,
	type SessionInfo as AcpSessionInfo,
	type SessionModeState,
} from "@agentclientprotocol/sdk";
import {
	APPROVAL_MODE_TEXT,
	APPROVAL_MODES,
	directoryNames,
	isDirectory,
	type AgentSession,
	listAllSessions,
	listSessions,
	readSessionInfo,
	type SessionInfo,
	sessionIdFromFileName,
	sessionsRoot,
	plainNotice,
	errorMessage,
} from "../../core/index.js";
import type { TextFileAccess } from "../../tools/index.js";
import { AcpSession } from "./acp-session.js";
import { clientFiles } from "./client-files.js";
import { replayUpdates } from "./replay.js";

export interface OpenSessionRequest {
	/** Absolute; the directory exists. */
	cwd: string;
	/** An existing session file to continue (session/load); undefined for a new session. */
	sessionFile?: string;
	/** Text files through the editor, when it offers them. */
	files?: TextFileAccess;
	/** The MCP servers the client asks the session to use, as --mcp-config text; undefined for none. */
	mcpConfig?: string;
}

export interface AcpAgentOptions {
	/** loom's version, told to the client. */
	version: string;
	/** loom's home: where sessions are found for session/load and session/list. */
	home: string;
	/** Sessions are kept on disk (not --no-session): they can be loaded and listed. */
	persist: boolean;
	/** Makes a session; rejects with a message fit for the user. */
	openSession(request: OpenSessionRequest): Promise<AgentSession>;
	/** A line for stderr (the editor's log of the agent). */
	log(text: string): void;
}

/** The agent's handlers, and closing every session it opened (when the connection ends). */
export interface LoomAcpAgent {
	app: AgentApp;
	closeAll(): Promise<void>;
}

export function createAcpAgent(options: AcpAgentOptions): LoomAcpAgent {
	const sessions = new Map<string, AcpSession>();
	let capabilities: ClientCapabilities = {};

	const find = (sessionId: string): AcpSession => {
		const found = sessions.get(sessionId);
		if (!found) throw RequestError.sessionNotFound(sessionId);
		return found;
	};

	const open = async (
		client: Parameters<typeof clientFiles>[0],
		{ mcpServers, ...request }: Omit<OpenSessionRequest, "files" | "mcpConfig"> & { mcpServers: readonly McpServer[] },
	): Promise<AcpSession> => {
		checkCwd(request.cwd);
		// The editor's file access names the session, whose id is known once it is open.
		let sessionId = "";
		const files = clientFiles(client, capabilities, () => sessionId);
		let session: AgentSession;
		try {
			session = await options.openSession({ ...request, files, mcpConfig: mcpConfigText(mcpServers) });
		} catch (error) {
			throw new RequestError(-32603, errorMessage(error));
		}
		sessionId = session.sessionId;
		for (const warning of session.loadWarnings) options.log(`loom: ${plainNotice("warning", warning)}`);
		const opened = new AcpSession(session, client, { notices: capabilities.session?.notices != null, log: options.log });
		sessions.set(opened.id, opened);
		// Questions and the command list wait for the response that tells the client about the session.
		setImmediate(() => void opened.opened());
		return opened;
	};

	const app = agent({ name: "loom" })
		.onRequest("initialize", ({ params }): InitializeResponse => {
			capabilities = params.clientCapabilities ?? {};
			return {
				protocolVersion: PROTOCOL_VERSION,
				agentCapabilities: {
					loadSession: options.persist,
					promptCapabilities: { image: true, embeddedContext: true },
					mcpCapabilities: { http: true, sse: true },
					sessionCapabilities: { ...(options.persist ? { list: {} } : {}), close: {} },
				},
				agentInfo: { name: "loom", title: "loom", version: options.version },
				authMethods: [],
			};
		})
		.onRequest("session/new", async ({ params, client }) => {
			const opened = await open(client, { cwd: params.cwd, mcpServers: params.mcpServers });
			return { sessionId: opened.id, modes: sessionModes(opened.session) };
		})
		.onRequest("session/load", async ({ params, client }) => {
			if (!options.persist) throw RequestError.invalidRequest(undefined, "loom acp runs with --no-session: no session is kept to load.");
			const file = sessionFile(options.home, params.sessionId);
			await sessions.get(params.sessionId)?.close();
			sessions.delete(params.sessionId);
			const opened = await open(client, { cwd: params.cwd, sessionFile: file, mcpServers: params.mcpServers });
			const messages = opened.session.entries.flatMap((entry) => (entry.type === "message" ? [entry.message] : []));
			// The whole conversation is replayed before the answer, as the protocol asks.
			await opened.send(replayUpdates(messages, opened.session.tools, opened.session.cwd));
			return { modes: sessionModes(opened.session) };
		})
		.onRequest("session/list", ({ params }) => {
			const found = params.cwd ? listSessions(options.home, params.cwd) : listAllSessions(options.home);
			return { sessions: found.map(listedSession) };
		})
		.onRequest("session/prompt", ({ params }) => find(params.sessionId).prompt(params.prompt))
		.onRequest("session/set_mode", async ({ params }) => {
			await setSessionMode(find(params.sessionId).session, params.modeId);
			return {};
		})
		.onNotification("session/cancel", ({ params }) => {
			sessions.get(params.sessionId)?.cancel();
		})
		.onRequest("session/close", async ({ params }) => {
			await find(params.sessionId).close();
			sessions.delete(params.sessionId);
			return {};
		});

	return {
		app,
		async closeAll() {
			const all = [...sessions.values()];
			sessions.clear();
			await Promise.all(all.map((session) => session.close()));
		},
	};
}

function checkCwd(cwd: string): void {
	if (!isAbsolute(cwd)) throw RequestError.invalidParams(undefined, `cwd must be an absolute path, got ${JSON.stringify(cwd)}.`);
	if (!isDirectory(cwd)) throw RequestError.invalidParams(undefined, `cwd ${cwd} is not a directory.`);
}

/** The file of a saved session, by its exact id (anything else, a path included, is not found). */
function sessionFile(home: string, sessionId: string): string {
	const root = sessionsRoot(home);
	// Found by file name, then confirmed by the file's own header: no other session file is read.
	for (const folder of directoryNames(root)) {
		for (const name of directoryNames(join(root, folder))) {
			if (sessionIdFromFileName(name) !== sessionId) continue;
			const file = join(root, folder, name);
			if (readSessionInfo(file)?.id === sessionId) return file;
		}
	}
	throw RequestError.sessionNotFound(sessionId);
}

function listedSession(info: SessionInfo): AcpSessionInfo {
	return { sessionId: info.id, cwd: info.cwd, title: info.firstPrompt || null, updatedAt: info.modified.toISOString() };
}

/**
 * The MCP servers an editor passes with a session, as the configuration text loom reads for --mcp-config
 * (.mcp.json's format): they start like the user's own servers, after the user's and the project's, and win a
 * name they share. Their values are read like a configuration file's, so `${VAR}` is expanded.
 */
export function mcpConfigText(servers: readonly McpServer[]): string | undefined {
	if (servers.length === 0) return undefined;
	const pairs = (list: readonly { name: string; value: string }[]) => Object.fromEntries(list.map(({ name, value }) => [name, value]));
	const entries = servers.map((server) =>
		"type" in server
			? [server.name, { type: server.type, url: server.url, headers: pairs(server.headers) }]
			: [server.name, { command: server.command, args: server.args, env: pairs(server.env) }],
	);
	return JSON.stringify({ mcpServers: Object.fromEntries(entries) });
}

// ACP session modes are loom's approval modes: auto, ask and read-only. A mode is switched the way the screen
// switches it, by the session's /approval command, so the policy that owns the mode stays the only one.

/** The modes to offer; undefined for a session without an approval policy. */
export function sessionModes(session: AgentSession): SessionModeState | undefined {
	const current = session.approvalMode;
	if (current === undefined) return undefined;
	return {
		currentModeId: current,
		availableModes: APPROVAL_MODES.map((id) => ({ id, name: APPROVAL_MODE_TEXT[id].name, description: APPROVAL_MODE_TEXT[id].meaning })),
	};
}

export async function setSessionMode(session: AgentSession, modeId: string): Promise<void> {
	const command = session.commands.get("approval");
	if (!command || session.approvalMode === undefined) throw RequestError.invalidParams(undefined, "this session has no approval modes.");
	if (!(APPROVAL_MODES as readonly string[]).includes(modeId)) {
		throw RequestError.invalidParams(undefined, `unknown mode "${modeId}"; the modes are ${APPROVAL_MODES.join(", ")}.`);
	}
	let failure: string | undefined;
	await command.handler(modeId, {
		session,
		busy: session.isStreaming,
		notify: (level, text) => {
			if (level === "error") failure = text;
		},
	});
	if (failure !== undefined) throw new RequestError(-32603, failure);
}
