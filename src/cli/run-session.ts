// A run with a session: settings, input, session, then print mode, RPC mode, the screen or the ACP server.
import {
	removeStaleOutputFolders,
	formatCount,
	answerText,
	SessionFileError,
	SessionInUseError,
	loadSettings,
	type Settings,
	SettingsError,
	stderrLine,
	stderrNotice,
	stripControls,
	stripToOneLine,
	mentionWord,
	warmUpFetch,
} from "../core/index.js";
import type { AgentSession, ProjectTrustGate } from "../core/index.js";
import { EXIT, fail, type RunIo, InterruptedError, UsageError, consoleToStderr } from "./run-io.js";
import { runsScreen } from "./runs-screen.js";
import type { CliOptions } from "./args.js";
import { loadOutputSchema, type OutputCheck, OutputSchemaError, runPrintMode, StdoutError, warningsToReport } from "./print/index.js";
import { enterPhase } from "./termination.js";
import { buildPromptInput, MAX_STDIN_BYTES, printPrompt, type PromptInput, readStdin, withWords } from "./prompt-input.js";
import { askToFork, chooseSessionFile, sessionInUseMessage } from "./session-choice.js";
import type { InteractiveOptions } from "../tui/index.js";
import type { TypedAhead } from "./typed-ahead.js";
import { type EarlyPrompt, screenMayLoad, sendableEarly, sendEarly } from "./early-prompt.js";

/** How long a silent, open stdin is waited for before loom says what it is waiting for. */
const STDIN_WAIT_MS = 3000;

/**
 * Returns the exit code. Usage errors are thrown as UsageError (exit 2) for main to report. `typedAhead`: the keys
 * typed since loom started, for the screen (or a question asked before it).
 */
export async function runSession(options: CliOptions, home: string, io: RunIo, version: string, typedAhead?: TypedAhead): Promise<number> {
	let settings: Settings;
	try {
		settings = loadSettings(home);
	} catch (error) {
		if (error instanceof SettingsError) return fail(io, error.message);
		throw error;
	}
	// The editor sends the prompts: stdin is the protocol, not a prompt.
	if (options.command === "acp") return runAcp(options, settings, home, io, version);
	// RPC mode reads commands from stdin, not a prompt.
	const rpc = options.mode === "rpc";
	const interactive = runsScreen(options, io);
	const stdinText =
		io.stdin.isTTY || rpc
			? ""
			: await readStdin(io.stdin, MAX_STDIN_BYTES, { afterMs: STDIN_WAIT_MS, notify: (text) => io.stderr.write(`${text}\n`) });
	const input = buildPromptInput(options.files, options.prompt, stdinText, io.cwd);
	const canAsk = io.stdin.isTTY === true && io.stderr.isTTY === true;
	// Without a terminal, -r prints the list and stops (exit 2), prompt or not; otherwise a missing prompt is caught first.
	if (!interactive && !rpc && input.text === "" && input.images.length === 0 && !(options.resume && !canAsk)) {
		throw new UsageError('No prompt: give one as arguments (loom -p "...") or pipe it on stdin.');
	}

	if (options.outputSchema !== undefined && interactive) throw new UsageError("--output-schema is for print mode: add -p.");
	let output: OutputCheck | undefined;
	try {
		output = options.outputSchema === undefined ? undefined : await loadOutputSchema(options.outputSchema, io.cwd);
	} catch (error) {
		if (error instanceof OutputSchemaError) throw new UsageError(error.message);
		throw error;
	}

	// The screen loads while the session is assembled, unless a prompt typed already is to go first (see
	// runScreen); without the screen, stdout is loom's alone before extensions load.
	let screenLoading = false;
	const loadScreen = () => {
		if (screenLoading) return;
		screenLoading = true;
		void import("../tui/index.js").then((tui) => tui.preloadScreen());
	};
	const sendsFirst = () => interactive && options.prompt.trim() === "" && options.files.length === 0 && sendableEarly(typedAhead?.line() ?? "");
	if (interactive && !sendsFirst()) loadScreen();
	else if (!interactive) consoleToStderr();
	// What the first shell command needs loads once the screen is up and has sat idle a moment, or once the first
	// prompt's answer has begun: not beside the screen's loading, the first keys drawn, or the first request.
	let startPreloads = () => {};
	const screenSettled = interactive ? new Promise<void>((resolve) => (startPreloads = resolve)) : undefined;
	let session: AgentSession;
	let projectTrust: ProjectTrustGate | undefined;
	try {
		const sessionFile = await chooseSessionFile(options, home, io.cwd, { ...io, canAsk, typedAhead });
		// Loaded here, not at the top: this is where the SDKs come in, and --help/--version never get this far.
		const [{ createSession }, { stderrUi }] = await Promise.all([import("./create-session.js"), import("../sdk/index.js")]);
		const setup = { options, settings, home, cwd: io.cwd, sessionFile, fork: options.fork !== undefined, ui: stderrUi(io.stderr), output, preloadAfter: screenSettled };
		let created: Awaited<ReturnType<typeof createSession>>;
		try {
			created = await createSession(setup);
		} catch (error) {
			// Another loom writes this session: the screen offers a fork; print mode says how to fork.
			if (!(error instanceof SessionInUseError)) throw error;
			if (!(interactive && (await askToFork(error, { ...io, canAsk, typedAhead })))) return fail(io, sessionInUseMessage(error));
			created = await createSession({ ...setup, fork: true });
		}
		session = created.session;
		projectTrust = created.projectTrust;
		// The screen and RPC's client are asked whether to trust the project; print mode cannot, so it says what it left out.
		if (!interactive && !rpc) reportUntrusted(created.projectTrust, io);
	} catch (error) {
		if (error instanceof SessionFileError) throw new UsageError(error.message);
		if (error instanceof UsageError) throw error;
		if (error instanceof InterruptedError) {
			io.stderr.write(stderrLine(error.message));
			return EXIT.interrupted;
		}
		return fail(io, (error as Error).message);
	}
	// Print mode says a warning about a file once per change of the file; the screen and RPC at each start.
	// --ephemeral remembers nothing, so it says every warning each time.
	const warnings = interactive || rpc || options.ephemeral ? session.loadWarnings : warningsToReport(home, session.loadWarnings);
	for (const warning of warnings) io.stderr.write(stderrNotice("warning", warning));

	const { killAllBashProcesses } = await import("../tools/index.js");
	// Output folders of loom processes that died without exiting go while this one works.
	const staleFoldersRemoved = removeStaleOutputFolders();
	try {
		// The screen sends the @files read above with the prompt, shown as typed with what went along.
		if (interactive) {
			const initialPrompt = [options.prompt.trim(), ...options.files.map((file) => mentionWord(file))].filter((part) => part !== "").join(" ");
			// A prompt typed and sent before the screen is up goes now, before the screen loads (unless the project's
			// trust is to be asked first: its answer must come before any run).
			const trustAsked = projectTrust?.status === "undecided" && projectTrust.pending.length > 0;
			const line = sendsFirst() && !trustAsked ? typedAhead?.takeLine() : undefined;
			const early = line === undefined ? undefined : sendEarly(session, line);
			if (!early) loadScreen();
			// With the screen's preloads, the first answer's set-up of fetch (otherwise done as the first request goes).
			const preloads = () => {
				warmUpFetch();
				startPreloads();
			};
			const start: ScreenStart = { initialPrompt, initialAttachments: input.attached, notify: settings.notify, startPreloads: preloads, early, typedAhead: typedAhead && (() => typedAhead.release()) };
			// Without a home the screen keeps no prompt history.
			return await runScreen(early?.session ?? session, start, io, options.ephemeral ? undefined : home);
		}
		if (rpc) return await runRpc(session, io);
		// A prompt template or skill named by the words is expanded as the screen would; other commands are refused.
		const prompt = withWords(input, await printPrompt(session.commands, input.parts.words));
		return await runPrint(session, prompt, options, io, output);
	} finally {
		startPreloads();
		session.dispose();
		killAllBashProcesses();
		await staleFoldersRemoved;
	}
}

/** How long the screen waits for the request of a prompt typed before it, at most. */
const EARLY_REQUEST_WAIT_MS = 300;

/** After the screen's first frame, how long it is left to itself before the first shell command's loads start (no prompt running). */
const PRELOAD_IDLE_MS = 500;

interface ScreenStart extends Pick<InteractiveOptions, "initialPrompt" | "initialAttachments" | "notify" | "typedAhead"> {
	/** Starts the loads the session holds back for the screen (createSession's preloadAfter). */
	startPreloads(): void;
	/** The prompt typed ahead and sent already: the screen loads once its request has gone. */
	early?: EarlyPrompt;
}

async function runScreen(session: AgentSession, first: ScreenStart, io: RunIo, loomHome: string | undefined): Promise<number> {
	// From a run's run_start until its run_end has been delivered (the session file and checkpoint complete).
	let runEnded: Promise<void> | undefined;
	let endRun = () => {};
	const stopWatching = session.subscribe(
		(event) => {
			if (event.type === "run_start") runEnded = new Promise((resolve) => (endRun = resolve));
			else if (event.type === "run_end") {
				runEnded = undefined;
				endRun();
			}
		},
		{ open: false },
	);
	let answered = false;
	let drawn = false;
	// The first shell command's loads may come once the first answer has begun and the screen is up.
	void session.firstAnswer().then(() => {
		answered = true;
		if (drawn) first.startPreloads();
	});
	// A prompt sent before the screen goes first: the screen loads (in runInteractive) beside the wait for its answer.
	const screenAllowed = first.early ? screenMayLoad(session, first.early, EARLY_REQUEST_WAIT_MS) : Promise.resolve();
	// The screen reads Ctrl+C as a key; a signal comes from outside (kill, a closed terminal): stop the run, let it
	// end, then leave as on quit. A second signal leaves at once; the screen restores the terminal as the process exits.
	let signalled: number | undefined;
	let stopScreen = (_code: number) => {};
	const stop = new Promise<number>((resolve) => (stopScreen = resolve));
	const stopSignals = enterPhase({
		stop(code) {
			signalled = code;
			void session
				.abort()
				.then(async () => {
					while (runEnded) await runEnded;
				})
				.finally(() => stopScreen(code));
		},
		leave: () => session.dispose(),
	});
	try {
		await screenAllowed;
		const { runInteractive } = await import("../tui/index.js");
		const code = await runInteractive(session, {
			initialPrompt: first.initialPrompt || undefined,
			initialAttachments: first.initialAttachments,
			notify: first.notify,
			onFirstFrame: () => {
				drawn = true;
				if (answered) first.startPreloads();
				else setTimeout(() => runEnded === undefined && first.startPreloads(), PRELOAD_IDLE_MS).unref();
			},
			typedAhead: first.typedAhead,
			startedPrompt: first.early,
			env: io.env,
			stdin: io.stdin,
			stdout: io.stdout,
			stderr: io.stderr,
			loomHome,
			stop,
		});
		// The screen is gone: say how to come back to what it left (a session with nothing saved has nothing to resume).
		if (session.sessionFile !== undefined && session.sessionSaved) io.stdout.write(`Resume this session with: loom --session ${session.sessionId}\n`);
		return signalled ?? code;
	} finally {
		stopSignals();
		stopWatching();
	}
}

async function runRpc(session: AgentSession, io: RunIo): Promise<number> {
	const { runRpcMode } = await import("./rpc/index.js");
	// A signal ends loom once the run is aborted and settled; a second one leaves at once.
	let stopSignals = () => {};
	const stop = new Promise<number>((resolve) => {
		stopSignals = enterPhase({ stop: resolve, leave: () => session.dispose() });
	});
	try {
		return await runRpcMode(session, { ...io, stop });
	} finally {
		stopSignals();
	}
}

async function runPrint(session: AgentSession, input: PromptInput, options: CliOptions, io: RunIo, output: OutputCheck | undefined): Promise<number> {
	let interrupted: number | undefined;
	// Ctrl+C aborts the run; the session file already holds every finished message, and the aborted one is
	// appended as the run settles. A second Ctrl+C leaves at once.
	const stopSignals = enterPhase({
		stop(code) {
			interrupted = code;
			void session.abort();
		},
		// Leaving mid-run: the session records what is known (a running tool's call gets its result) first.
		leave: () => session.dispose(),
	});
	// The reader went away (`loom --mode json | head -1`): stop the run as for a signal, quietly.
	let readerGone = false;
	// Any other write failure (a full disk): the output is being lost, so stop the run and fail.
	let outputError: Error | undefined;
	const onStdoutError = (error: NodeJS.ErrnoException) => {
		if (error.code === "EPIPE") {
			if (readerGone) return;
			readerGone = true;
			interrupted ??= EXIT.brokenPipe;
		} else {
			if (outputError) return;
			outputError = new StdoutError(error);
		}
		void session.abort();
	};
	io.stdout.on("error", onStdoutError);
	const stop = () => {
		stopSignals();
		io.stdout.off("error", onStdoutError);
		// Late writes after a failed one must not surface as an unhandled error.
		io.stdout.on("error", () => {});
	};
	// Subscribed before print mode's own listener, in the same tick, so neither misses session_open.
	const unanswered = new Set<string>();
	let denied = 0;
	session.subscribe((event) => {
		if (event.type !== "tool_approval_resolved" || event.outcome !== "unanswered") return;
		denied++;
		for (const rule of event.rules ?? []) unanswered.add(rule);
	});
	try {
		// Stopped before the prompt starts (the session still opening): it is never sent.
		const stopped = () => interrupted !== undefined || outputError !== undefined;
		const { outcome, structured } = await runPrintMode(session, input, options.mode === "json" ? "json" : "text", { ...io, stopped, output });
		if (denied > 0) io.stderr.write(`${deniedNote(denied, [...unanswered])}\n`);
		if (outputError) return fail(io, outputError.message);
		if (interrupted !== undefined) {
			if (!readerGone) io.stderr.write(stderrLine("interrupted"));
			return interrupted;
		}
		if (outcome.status !== "done") return fail(io, outcome.errorMessage ?? outcome.status);
		if (structured && !structured.ok) {
			io.stderr.write(stderrLine(`the answer is not valid against --output-schema, even when asked again:\n${structured.errors}`));
			return EXIT.invalidOutput;
		}
		// Exit 0 all the same (the answer is what the model wrote), but a script's reader must know it is incomplete.
		if (outcome.message?.stopReason === "length") {
			io.stderr.write(stderrLine("the answer was cut off at the model's output limit (max tokens)."));
		}
		if (options.maxTurns !== undefined && outcome.message?.stopReason === "toolUse") {
			io.stderr.write(stderrLine(`stopped after ${formatCount(options.maxTurns, "model turn")} (--max-turns).`));
		}
		// An empty stdout is otherwise indistinguishable from a lost answer.
		if (options.mode !== "json" && outcome.message?.stopReason === "stop" && answerText(outcome.message).trim() === "") {
			io.stderr.write(stderrLine("the model returned no text."));
		}
		return EXIT.ok;
	} catch (error) {
		if (error instanceof StdoutError && error.code === "EPIPE") return EXIT.brokenPipe;
		// The run could not start (no usable model or key: the message says what to set), or stdout failed.
		return fail(io, (error as Error).message);
	} finally {
		stop();
	}
}

/** Rules shown at most in the note; the model was told each call's own. */
const MAX_RULES_SHOWN = 6;

/** Print mode cannot ask: how many calls that needed approval were refused, and how to allow them next time. */
function deniedNote(count: number, rules: string[]): string {
	const [calls, they, them] = count === 1 ? ["1 tool call was", "it", "it"] : [`${count} tool calls were`, "they", "them"];
	const shown = rules.slice(0, MAX_RULES_SHOWN).map((rule) => `--allow '${stripToOneLine(rule)}'`);
	if (rules.length > shown.length) shown.push("…");
	const allow = shown.length > 0 ? `allow ${them} with ${shown.join(" ")}, or ` : "";
	return `loom: ${calls} denied: in approval mode "ask" ${they} needed approval, and nobody can answer in print mode. To run ${them}, ${allow}use --approval auto.`;
}

/** Print mode on stderr: the project's own code that did not run, why, and how to run it. */
function reportUntrusted(trust: ProjectTrustGate, io: RunIo): void {
	const skipped = trust.pending;
	if (skipped.length === 0) return;
	const why =
		trust.status === "refused"
			? "you chose not to trust this folder; pass --trust to run it this time"
			: 'this folder is not trusted yet: pass --trust (or set "trustProjects": true in settings.json), or run loom here without -p to be asked';
	io.stderr.write(`loom: skipped the project's own code (${stripControls(skipped.join(", "))}): ${why}.\n`);
}

/** Serves ACP until the editor closes the connection (exit 0) or a signal stops loom (every run aborted first). */
async function runAcp(options: CliOptions, settings: Settings, home: string, io: RunIo, version: string): Promise<number> {
	const [{ serveAcp }, { createSession }, { stderrUi }, { killAllBashProcesses }] = await Promise.all([
		import("./acp/index.js"),
		import("./create-session.js"),
		import("../sdk/index.js"),
		import("../tools/index.js"),
	]);
	const server = serveAcp({
		input: io.stdin,
		output: io.stdout,
		stderr: io.stderr,
		home,
		version,
		persist: options.persist,
		openSession: async ({ cwd, sessionFile, files, mcpConfig }) => {
			// The editor's MCP servers start like those of --mcp-config.
			const sessionOptions = mcpConfig === undefined ? options : { ...options, mcpConfig: [...options.mcpConfig, mcpConfig] };
			try {
				// Notices on stderr until the ACP session installs its own ui.
				return (await createSession({ options: sessionOptions, settings, home, cwd, sessionFile, files, ui: stderrUi(io.stderr) })).session;
			} catch (error) {
				// Another loom holds the session: say how to go on, as print mode does.
				throw error instanceof SessionInUseError ? new Error(sessionInUseMessage(error)) : error;
			}
		},
	});
	consoleToStderr();
	// Output folders of loom processes that died without exiting go while this one serves.
	const staleFoldersRemoved = removeStaleOutputFolders();
	let code: number = EXIT.ok;
	const stop = enterPhase({
		stop(exitCode) {
			code = exitCode;
			void server.close();
		},
	});
	try {
		await server.done;
	} finally {
		stop();
		killAllBashProcesses();
		await staleFoldersRemoved;
	}
	return code;
}
