// `loom --mode rpc`: commands on stdin, one JSON object a line; responses, every session event and the session's
// questions on stdout. Events are `--mode json`'s lines, but for tool_execution_update: it carries the call's args
// and its whole partialResult (the tool's progress as it stands), as Pi's RPC mode sends it, where JSON mode sends
// only what changed. Commands are served as they arrive, so abort, steer and answers reach a run going on. A bad
// line is answered with an error response and loom keeps serving; the end of stdin aborts the run, waits for it to
// settle (the session file complete) and ends loom.
import type { AgentSession, SessionEvent } from "../../core/index.js";
import { stderrLine, errorMessage } from "../../core/index.js";
import { EXIT } from "../run-io.js";
import { eventToJsonLine, LineWriter } from "../print/index.js";
import { readLines } from "./line-reader.js";
import { COMMANDS, NO_RESPONSE, type RpcContext } from "./rpc-commands.js";
import { CommandError, failure, parseCommandLine, type RpcCommand, type RpcResponse, success } from "./rpc-protocol.js";
import type { ModeState } from "./rpc-state.js";
import { RpcUi } from "./rpc-ui.js";

export interface RpcIo {
	stdin: NodeJS.ReadableStream;
	stdout: NodeJS.WritableStream;
	stderr: NodeJS.WritableStream;
	/** Resolves with an exit code when loom must end now (a signal); the run is aborted first. */
	stop?: Promise<number>;
}

/** The longest command line taken: images travel inside lines, so room for several. */
export const MAX_LINE_CHARS = 64 * 1024 * 1024;

/** Returns the exit code: 0 when stdin ended, the signal's code when stopped, 141 when stdout's reader went away. */
export async function runRpcMode(session: AgentSession, io: RpcIo): Promise<number> {
	const out = new LineWriter(io.stdout);
	const write = (value: object) => void out.write(value);
	const server = new RpcServer(session, write, io.stderr);
	session.setUi(server.ui);
	// Awaited by the session: a slow reader slows the run down instead of piling its lines up in memory.
	session.subscribe((event) => {
		server.onEvent(event);
		// No ToolUpdateDeltas: RPC clients (Pi's among them) read each update's partialResult whole.
		const line = eventToJsonLine(event);
		return line === undefined ? undefined : out.write(line);
	});
	await session.start();

	const gone = new Promise<number>((resolve) => out.onEnd(() => resolve(EXIT.brokenPipe)));
	const ended = readLines(io.stdin, MAX_LINE_CHARS, {
		line: (text) => server.serve(text),
		tooLong: (chars) => write(failure({ type: "parse" }, `A command line of over ${chars} characters was skipped; lines are limited to ${MAX_LINE_CHARS}.`)),
	}).then(() => EXIT.ok);
	const code = await Promise.race([ended, gone, ...(io.stop ? [io.stop] : [])]);

	// Nobody is left to answer questions; the run stops (its run_end written) and every command in flight is answered.
	server.ui.close();
	await session.abort();
	await server.runsEnded();
	await server.settled();
	return code;
}

/** One response per command, written once: a prompt's at its run_start, before the run's events. */
class Reply {
	private sent = false;
	constructor(
		private readonly command: Pick<RpcCommand, "type" | "id">,
		private readonly write: (value: RpcResponse) => void,
	) {}
	get done(): boolean {
		return this.sent;
	}
	send(response: RpcResponse): void {
		if (this.sent) return;
		this.sent = true;
		this.write(response);
	}
	succeed(data?: unknown): void {
		this.send(success(this.command, data));
	}
	fail(message: string): void {
		this.send(failure(this.command, message));
	}
}

interface Starting {
	began(): void;
	settled: Promise<unknown>;
}

class RpcServer {
	readonly ui: RpcUi;
	private readonly mode: ModeState = { isCompacting: false, isStarting: false };
	/** Prompts between their command and their run_start, oldest first. */
	private starting: Starting[] = [];
	private readonly inFlight = new Set<Promise<void>>();
	/** Runs the client started, until their run_end has been written. */
	private readonly runs = new Set<Promise<unknown>>();
	/** From a run_start written to its run_end (a run started any way, e.g. by a command). */
	private running: Promise<void> | undefined;
	private endRun = () => {};

	constructor(
		private readonly session: AgentSession,
		private readonly write: (value: object) => void,
		private readonly stderr: NodeJS.WritableStream,
	) {
		this.ui = new RpcUi(write);
	}

	/** Sees each event before it is written: a starting prompt's response goes out ahead of its run_start. */
	onEvent(event: SessionEvent): void {
		if (event.type === "run_start") {
			this.running = new Promise((resolve) => (this.endRun = resolve));
			this.starting.shift()?.began();
		} else if (event.type === "run_end") {
			this.endRun();
			this.running = undefined;
		} else if (event.type === "compaction_start") this.mode.isCompacting = true;
		else if (event.type === "compaction_end") this.mode.isCompacting = false;
		this.mode.isStarting = this.starting.length > 0;
	}

	serve(line: string): void {
		if (line.trim() === "") return;
		const parsed = parseCommandLine(line);
		if (!parsed.ok) {
			this.write(failure({ type: "parse", id: parsed.id }, parsed.error));
			return;
		}
		const { command } = parsed;
		const reply = new Reply(command, this.write);
		const handler = Object.hasOwn(COMMANDS, command.type) ? COMMANDS[command.type] : undefined;
		if (!handler) {
			reply.fail(`Unknown command "${command.type}". Commands: ${Object.keys(COMMANDS).join(", ")}.`);
			return;
		}
		const served = this.run(handler, command, reply);
		this.inFlight.add(served);
		void served.finally(() => this.inFlight.delete(served));
	}

	/** Resolves once no run is going on: each run's run_end is written (after abort, before loom ends). */
	async runsEnded(): Promise<void> {
		while (this.runs.size > 0 || this.running) await Promise.allSettled([...this.runs, this.running]);
	}

	/** Resolves once every command received so far has been answered. */
	async settled(): Promise<void> {
		while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
	}

	private async run(handler: (command: RpcCommand, ctx: RpcContext) => unknown, command: RpcCommand, reply: Reply): Promise<void> {
		try {
			const data = await handler(command, this.context(reply));
			if (data !== NO_RESPONSE) reply.succeed(data);
		} catch (error) {
			const message = this.messageFor(error);
			if (!reply.done) reply.fail(message);
			// Answered already (its run started): the failure is still the client's to know.
			else this.ui.notify("error", message);
		}
	}

	private context(reply: Reply): RpcContext {
		return {
			session: this.session,
			ui: this.ui,
			mode: this.mode,
			busy: () => this.session.isStreaming || this.starting.length > 0,
			startRun: (start) => this.startRun(reply, start),
			runsEnded: () => this.runsEnded(),
			whenStarted: async () => {
				while (this.starting.length > 0) await Promise.allSettled(this.starting.map((entry) => entry.settled));
			},
		};
	}

	private startRun<T>(reply: Reply, start: () => Promise<T>): Promise<{ started: true } | { started: false; value: T }> {
		return new Promise((resolve, reject) => {
			let began = false;
			const settled = Promise.resolve().then(start);
			this.runs.add(settled);
			const entry: Starting = {
				began: () => {
					began = true;
					reply.succeed();
					resolve({ started: true });
				},
				settled,
			};
			this.starting.push(entry);
			this.mode.isStarting = true;
			const forget = () => {
				this.runs.delete(settled);
				this.starting = this.starting.filter((candidate) => candidate !== entry);
				this.mode.isStarting = this.starting.length > 0;
			};
			settled.then(
				(value) => {
					forget();
					if (!began) resolve({ started: false, value });
				},
				(error) => {
					forget();
					if (began) this.ui.notify("error", this.messageFor(error));
					else reject(error);
				},
			);
		});
	}

	/**
	 * What the client is told. Commands and the session throw errors written for the user; anything else is a
	 * defect, whose stack goes to stderr, never to stdout.
	 */
	private messageFor(error: unknown): string {
		if (error instanceof CommandError) return error.message;
		if (error instanceof TypeError || error instanceof RangeError || error instanceof ReferenceError || !(error instanceof Error)) {
			this.stderr.write(stderrLine(`rpc: unexpected error: ${(error as Error)?.stack ?? String(error)}`));
			return `loom failed unexpectedly: ${errorMessage(error)} (details on stderr)`;
		}
		return error.message;
	}
}
