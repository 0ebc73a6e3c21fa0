// Connecting to one server with the official SDK: the transport its configuration names, the initialize
// handshake, and the requests loom makes. Imported only once a server is configured (a dynamic import), so a
// start without MCP servers never loads the SDK.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, McpError, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import { type ConfineSpawn, errorMessageWithCause } from "../../core/index.js";
import { type FailureKind, formatMs, RequestFailure, schemaIssuesText } from "./call-errors.js";
import type { McpServerSpec } from "./mcp-config.js";
import { McpOAuthProvider } from "./oauth-provider.js";
import { ProcessGroupTransport } from "./stdio-transport.js";
import type { McpCallResult } from "./tool-result.js";

/** A tool as a server lists it (the parts loom uses). */
export type ListedTool = Pick<Tool, "name" | "title" | "description" | "inputSchema" | "annotations">;

export interface ClientEvents {
	/** The connection ended without loom closing it (the server exited, the stream broke). */
	onClosed(): void;
	/** The server says its tools changed. */
	onToolsChanged(): void;
}

export interface CallOptions {
	signal?: AbortSignal;
	timeoutMs: number;
	onProgress?(progress: { progress: number; total?: number; message?: string }): void;
}

/** One live connection; close() ends it (and a stdio server's whole process group). */
export interface OpenClient {
	listTools(timeoutMs: number): Promise<ListedTool[]>;
	callTool(name: string, args: Record<string, unknown>, options: CallOptions): Promise<McpCallResult>;
	/** How a stdio server ended and the end of its stderr, for messages; undefined for a remote one. */
	exitReport(): string | undefined;
	close(): Promise<void>;
}

/** Whose OAuth login an HTTP server's requests carry: loom's home (auth.json) and the server's name. */
export interface ClientLogin {
	home: string;
	server: string;
	/** Tells the user about a login problem that does not stop the server (an unreadable auth.json). */
	warn?(text: string): void;
}

export async function openClient(spec: McpServerSpec, version: string, events: ClientEvents, confine?: ConfineSpawn, login?: ClientLogin): Promise<OpenClient> {
	const transport = createTransport(spec, confine, login);
	const client = new Client(
		{ name: "loom", version },
		{
			capabilities: {},
			jsonSchemaValidator: lenientValidator,
			listChanged: { tools: { autoRefresh: false, onChanged: () => events.onToolsChanged() } },
		},
	);
	let closing = false;
	client.onclose = () => {
		if (!closing) events.onClosed();
	};
	// Transport errors (a line that is not JSON-RPC, a dropped event stream) are not fatal by themselves; a
	// connection that really ends reports through onclose, and a failed request rejects.
	client.onerror = () => {};
	const close = async () => {
		closing = true;
		await client.close().catch(() => {});
	};
	try {
		await client.connect(transport, { timeout: spec.startupTimeoutMs });
	} catch (error) {
		// Reported now; the process is ended meanwhile (politely first, so it may take a moment).
		void close();
		throw startError(error, spec, transport);
	}
	return {
		async listTools(timeoutMs) {
			const tools: ListedTool[] = [];
			let cursor: string | undefined;
			do {
				const page = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: timeoutMs }).catch((error: unknown) => {
					const issues = schemaIssuesText(error);
					throw issues === undefined ? error : new Error(`its list of tools does not follow the MCP schema: ${issues}.`);
				});
				tools.push(...page.tools);
				cursor = page.nextCursor;
			} while (cursor);
			return tools;
		},
		async callTool(name, args, options) {
			try {
				return (await client.callTool({ name, arguments: args }, undefined, {
					signal: options.signal,
					timeout: options.timeoutMs,
					resetTimeoutOnProgress: true,
					onprogress: options.onProgress,
				})) as McpCallResult;
			} catch (error) {
				throw new RequestFailure(failureKind(error), errorMessageWithCause(error));
			}
		},
		exitReport: () => (transport instanceof ProcessGroupTransport ? exitReport(transport) : undefined),
		close,
	};
}

/**
 * The SDK checks a tool's structured result against its output schema, compiling every output schema when the
 * tools are listed; one it cannot compile (a pattern JavaScript refuses) would fail the listing, and with it the
 * whole server. Such a schema checks nothing instead.
 */
const strict = new AjvJsonSchemaValidator();
const lenientValidator: jsonSchemaValidator = {
	getValidator(schema) {
		try {
			return strict.getValidator(schema);
		} catch {
			return (input) => ({ valid: true, data: input as never, errorMessage: undefined });
		}
	},
};

function createTransport(spec: McpServerSpec, confine: ConfineSpawn | undefined, login: ClientLogin | undefined): Transport {
	if (spec.transport === "stdio") return new ProcessGroupTransport(spec, confine);
	// With a login, the SDK adds its token, renews it on a 401 (refresh token), and a server that asks for a sign-in
	// loom has not done fails saying `loom mcp login <server>`.
	const authProvider = login ? new McpOAuthProvider(login.home, login.server, spec.url, undefined, login.warn) : undefined;
	const options = { requestInit: { headers: spec.headers }, ...(authProvider ? { authProvider } : {}) };
	return spec.transport === "sse" ? new SSEClientTransport(new URL(spec.url), options) : new StreamableHTTPClientTransport(new URL(spec.url), options);
}

/** Why a connection could not be made, in words: the process's exit and stderr, or the network's error. */
function startError(error: unknown, spec: McpServerSpec, transport: Transport): Error {
	const report = transport instanceof ProcessGroupTransport ? exitReport(transport) : undefined;
	if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
		return new Error(`no answer to the initialize request within ${formatMs(spec.startupTimeoutMs)}${report ? `; ${report}` : ""}`);
	}
	if (report && error instanceof McpError && error.code === ErrorCode.ConnectionClosed) return new Error(report);
	const status = (error as { code?: unknown })?.code;
	const message = typeof status === "number" && status >= 100 && status < 600 ? `${errorMessageWithCause(error)} (HTTP ${status})` : errorMessageWithCause(error);
	return new Error(report ? `${message}; ${report}` : message);
}

function exitReport(transport: ProcessGroupTransport): string | undefined {
	const exit = transport.exitDescription;
	const stderr = lastLines(transport.stderrTail, 3);
	if (!exit && !stderr) return undefined;
	return [exit ? `the server ${exit}` : undefined, stderr ? `its stderr ends: ${stderr}` : undefined].filter(Boolean).join("; ");
}

function lastLines(text: string, count: number): string {
	return text
		.split("\n")
		.map((line) => line.trim())
		.filter((line) => line !== "")
		.slice(-count)
		.join(" | ");
}

function failureKind(error: unknown): FailureKind {
	if (error instanceof McpError) {
		if (error.code === ErrorCode.RequestTimeout) return "timeout";
		if (error.code === ErrorCode.ConnectionClosed) return "closed";
		return "server";
	}
	return "transport";
}
