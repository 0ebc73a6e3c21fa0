// Runs extensions against one session: each extension's API puts its handlers on the session's seams (a link in
// the before- or after-chain, an observer of the event stream, a tool, a command) and remembers how to take each
// back, so a failed load leaves nothing behind and disposing the session removes everything.
import { checkableSchema, errorMessage, isTypeBoxSchema, isValidToolName, TOOL_NAME_RULE, toolResultProblem } from "../../core/index.js";
import type {
	AfterToolCallResult,
	AgentSession,
	CommandScope,
	AfterLink,
	BeforeLink,
	SessionEvent,
	ToolDefinition,
} from "../../core/index.js";
import type {
	ExtensionAPI,
	ExtensionCommand,
	ExtensionContext,
	ExtensionFactory,
	SendMessageOptions,
	ToolCallEvent,
	ToolCallHandler,
	ToolResultEvent,
	ToolResultEventResult,
	ToolResultHandler,
} from "./extension-api.js";
import { HandlerWatch } from "./handler-watch.js";
import { withLoadTimeout } from "./load-timeout.js";

/** Where an extension's tools go: the assembly's tool set, which enables them on the session. */
export interface ToolRegistrar {
	/** Adds a tool and enables it if the session's tool choice allows; returns the function that removes it. Throws on a taken name. */
	addTool(tool: ToolDefinition<any>, owner: string): () => void;
}

type Observer = (event: SessionEvent, ctx: ExtensionContext) => unknown;

interface ObserverEntry {
	extension: string;
	handler: Observer;
}

export class ExtensionHost {
	private readonly observers = new Map<string, ObserverEntry[]>();
	/** Handlers whose throw was already reported: each is reported once. */
	private readonly reported = new WeakSet<object>();
	private stopObserving: (() => void) | undefined;
	private readonly removers: (() => void)[] = [];
	private readonly watch: HandlerWatch;

	constructor(
		private readonly session: AgentSession,
		private readonly tools: ToolRegistrar,
		private readonly loadTimeoutMs: number,
	) {
		this.watch = new HandlerWatch((problem, waiting) => this.broken(problem, waiting));
	}

	/**
	 * Calls one extension's factory with its API. When the factory throws (or does not finish in time), whatever
	 * it registered is removed and the error is rethrown for the caller to report. `scope`: whose the extension is,
	 * which ranks its commands against others of their names.
	 */
	async load(name: string, factory: ExtensionFactory, scope: CommandScope = "user"): Promise<void> {
		const taken: (() => void)[] = [];
		let open = true;
		const api = this.api(name, scope, (remove) => {
			if (!open) {
				remove();
				throw new Error(`Extension ${name} registered something after it had failed to load; it was removed.`);
			}
			taken.push(remove);
		});
		try {
			await withLoadTimeout(Promise.resolve().then(() => factory(api)), this.loadTimeoutMs);
			this.removers.push(...taken);
			this.watch.loaded(name);
		} catch (error) {
			open = false;
			for (const remove of taken.reverse()) remove();
			throw error;
		}
	}

	/** Removes every hook, observer, tool and command of every extension. */
	dispose(): void {
		for (const remove of this.removers.splice(0).reverse()) remove();
		this.stopObserving?.();
		this.stopObserving = undefined;
		this.observers.clear();
		this.watch.dispose();
	}

	/**
	 * An extension broke the run without a handler of its throwing (see HandlerWatch): the run ends as an error
	 * saying so. Calls waiting on it have their error results, so the run ends after this turn; with none waiting
	 * (a timer of its own threw) it stops now. With no run in progress the user is told, and loom goes on.
	 */
	private broken(problem: string, waiting: boolean): void {
		if (!this.session.failRun(problem)) this.session.ui.notify("error", `${problem} (loom goes on)`);
		else if (!waiting) void this.session.abort();
	}

	private api(name: string, scope: CommandScope, keep: (remove: () => void) => void): ExtensionAPI {
		const { session } = this;
		const on = (event: string, handler: (...args: any[]) => unknown): (() => void) => {
			if (typeof handler !== "function") throw new Error(`Extension ${name}: on("${event}") needs a handler function.`);
			const remove =
				event === "tool_call"
					? session.hooks.before.add(this.beforeLink(name, handler as ToolCallHandler), { stage: "extension", name })
					: event === "tool_result"
						? session.hooks.after.add(this.afterLink(name, handler as ToolResultHandler), { stage: "extension", name })
						: this.observe(event, { extension: name, handler: handler as Observer });
			keep(remove);
			return remove;
		};
		return {
			cwd: session.cwd,
			session,
			on: on as ExtensionAPI["on"],
			registerTool: (tool) => keep(this.tools.addTool(this.watchedTool(checkTool(tool as ToolDefinition<any>, name), name), name)),
			registerCommand: (command, definition) => keep(this.registerCommand(name, scope, command, definition)),
			sendMessage: (text, options) => this.sendMessage(text, options),
			notify: (text, level = "info") => session.ui.notify(level, String(text)),
		};
	}

	/**
	 * The tool with its execute() watched like a handler: one that can never settle, or a throw in its own timer,
	 * gives the call an error result naming the extension and ends the run as an error.
	 */
	private watchedTool(tool: ToolDefinition<any>, extension: string): ToolDefinition<any> {
		const execute = tool.execute;
		return { ...tool, execute: (id, params, signal, onUpdate) => this.watch.run(extension, `tool "${tool.name}"`, () => execute(id, params, signal, onUpdate), signal) };
	}

	private context(signal?: AbortSignal): ExtensionContext {
		const { session } = this;
		return { cwd: session.cwd, session, ui: session.ui, signal };
	}

	/** A throw (or a handler that can never settle) blocks the call; the chain names the extension in the reason the model reads. */
	private beforeLink(extension: string, handler: ToolCallHandler): BeforeLink {
		return async ({ toolCall, args }, signal) => {
			const event = { type: "tool_call", toolCallId: toolCall.id, toolName: toolCall.name, input: args } as ToolCallEvent;
			const result = await this.watch.run(extension, "tool_call handler", () => handler(event, this.context(signal)), signal);
			if (!result?.block) return undefined;
			return { block: true, reason: result.reason, terminate: result.terminate };
		};
	}

	/**
	 * A throw turns the result into an error result (the chain names the extension). What the handler returns is
	 * checked by the chain (composeAfter): a malformed result is refused there, naming the extension.
	 */
	private afterLink(extension: string, handler: ToolResultHandler): AfterLink {
		return async ({ toolCall, args, result, isError }, signal) => {
			const event = {
				type: "tool_result",
				toolCallId: toolCall.id,
				toolName: toolCall.name,
				input: args,
				content: result.content,
				details: result.details,
				isError,
			} as ToolResultEvent;
			const after: unknown = await this.watch.run(extension, "tool_result handler", () => handler(event, this.context(signal)), signal);
			if (after === undefined || after === null) return undefined;
			// Not an object: handed on whole, for the chain to refuse.
			if (typeof after !== "object") return after as AfterToolCallResult;
			const { content, details, isError: error, terminate } = after as ToolResultEventResult;
			return { content, details, isError: error, terminate };
		};
	}

	/** One listener on the session for every observer; observers are called in order and never awaited. */
	private observe(type: string, entry: ObserverEntry): () => void {
		this.observers.set(type, [...(this.observers.get(type) ?? []), entry]);
		this.stopObserving ??= this.session.subscribe((event) => this.deliver(event), { open: false });
		return () => {
			const rest = (this.observers.get(type) ?? []).filter((other) => other !== entry);
			this.observers.set(type, rest);
		};
	}

	private deliver(event: SessionEvent): void {
		const entries = this.observers.get(event.type);
		if (!entries) return;
		for (const entry of entries) {
			try {
				const outcome = entry.handler(event, this.context());
				if (outcome instanceof Promise) outcome.catch((error) => this.reportOnce(entry, event.type, error));
			} catch (error) {
				this.reportOnce(entry, event.type, error);
			}
		}
	}

	private reportOnce(entry: ObserverEntry, type: string, error: unknown): void {
		if (this.reported.has(entry)) return;
		this.reported.add(entry);
		this.session.ui.notify(
			"error",
			`Extension ${entry.extension}: its ${type} handler failed: ${errorMessage(error)} (reported once; loom goes on).`,
		);
	}

	/** A name another command has is no error: the registry runs one of them and reports the other as hidden. */
	private registerCommand(extension: string, scope: CommandScope, name: string, command: ExtensionCommand): () => void {
		if (typeof command?.handler !== "function") throw new Error(`Extension ${extension}: command /${name} needs a handler function.`);
		return this.session.commands.register({
			name,
			description: String(command.description ?? ""),
			argsHint: command.argsHint,
			source: "extension",
			scope,
			origin: extension,
			handler: (args, ctx) => command.handler(args, ctx),
		});
	}

	private sendMessage(text: string, options: SendMessageOptions = {}): void {
		if (options.deliverAs === "followUp") this.session.followUp(String(text));
		else this.session.steer(String(text));
	}
}

/** The parts the loop and the prompt need, checked where the extension registers the tool (so its path is named). */
function checkTool(tool: ToolDefinition<any>, extension: string): ToolDefinition<any> {
	const problem =
		typeof tool?.name !== "string" || !isValidToolName(tool.name)
			? `a name of ${TOOL_NAME_RULE}`
			: typeof tool.execute !== "function"
				? "an execute function"
				: typeof tool.parameters !== "object" || tool.parameters === null
					? "parameters (a TypeBox schema, e.g. Type.Object({...}), or a JSON Schema object)"
					: typeof tool.description !== "string"
						? "a description for the model"
						: undefined;
	if (problem) throw new Error(`Extension ${extension}: registerTool(${JSON.stringify(tool?.name ?? null)}) needs ${problem}.`);
	// Plain JSON Schema is checked as an MCP server's is: made checkable, sent to the model as written.
	const parameters = isTypeBoxSchema(tool.parameters) ? tool.parameters : checkableSchema(tool.parameters);
	return { ...tool, parameters, label: typeof tool.label === "string" && tool.label !== "" ? tool.label : tool.name, execute: checkedExecute(tool, extension) };
}

/**
 * The tool's execute() with what it returns checked before it reaches a message: a malformed result (a null part,
 * a text that is not text) is an error result naming the extension, and a malformed update is not shown.
 */
function checkedExecute(tool: ToolDefinition<any>, extension: string): ToolDefinition<any>["execute"] {
	return async (id, params, signal, onUpdate) => {
		const update: typeof onUpdate = onUpdate && ((partial) => void (toolResultProblem(partial) === undefined && onUpdate(partial)));
		const result = await tool.execute(id, params, signal, update);
		const problem = toolResultProblem(result);
		if (problem) throw new Error(`Extension ${extension}: the tool "${tool.name}" returned a malformed result (${problem}).`);
		return result;
	};
}
