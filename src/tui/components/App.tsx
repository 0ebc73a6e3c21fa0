import { Box, useStdout } from "ink";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { attachMentions, errorMessage, resolveCommand, type NoticeLevel } from "../../core/index.js";
import type { AttachedPrompt, Attachment, ImageContent } from "../../core/index.js";
import {
	hasMarker,
	loadPromptHistory,
	savePrompt,
	hiddenCommandNotices,
	runSlashCommand,
	screenCommands,
} from "../editor/index.js";
import { footerHeight, dialogMaxRows, liveBudget } from "../screen/index.js";
import {
	useClock,
	useCompletions,
	useDialogs,
	useScreenKeys,
	useShellCommands,
	useTerminalHandoff,
	useSessionView,
	useWhenIdle,
	CLEAR_TERMINAL,
	useTranscriptPrinter,
	useTerminalSize,
} from "../hooks/index.js";
import { HISTORY_PROMPTS, type ScreenView, initialView, isBusy } from "../transcript/index.js";
import { warmUpMarkdown } from "../text/index.js";
import type { SessionPort, StartedPrompt } from "../session-port.js";
import { DialogHost } from "./DialogHost.js";
import { Editor } from "./Editor.js";
import { Footer } from "./Footer.js";
import { LiveArea } from "./LiveArea.js";
import { QueuedMessages, queuedHeight } from "./QueuedMessages.js";
import { TodoList, todoListHeight } from "./TodoList.js";
import { ShellRow } from "./ShellRow.js";

/** Once the screen has been this quiet, the highlighter loads and the markdown renderer gets ready. */
const WARM_UP_QUIET_MS = 300;
/** Spinner and elapsed-time tick while something is in progress. */
const CLOCK_INTERVAL_MS = 100;
/** A resize settles before the transcript is reprinted (dragging a window sends many). */
const RESIZE_SETTLE_MS = 200;

export interface AppProps {
	session: SessionPort;
	initialPrompt?: string;
	/** Files the initial prompt mentions, read already (the CLI's @file arguments): sent as read, not read again. */
	initialAttachments?: readonly Attachment[];
	/** False without a TTY: nothing can be typed, so the screen runs the initial prompt and exits. */
	inputActive: boolean;
	/** Called once, when the screen is done, with the process exit code. */
	onExit(code: number): void;
	home?: string;
	/** The file the prompts typed are kept in across sessions (the loom home's prompt history); none: not kept. */
	historyFile?: string;
	/**
	 * Where finished transcript text goes. Default: Ink's write, above the live area, into the terminal's
	 * scrollback. (Tests record it instead: Ink's debug mode redraws whole frames and would drop it.)
	 */
	print?: (text: string) => void;
	/** Told of each dialog as it opens, by its title (the screen rings when a run waits for an answer). */
	onDialog?: (title: string) => void;
	/** A prompt sent before the screen was up: kept and answered as one sent from the editor. */
	startedPrompt?: StartedPrompt;
}

function deferred<T>(): { promise: Promise<T>; resolve(value: T): void } {
	let resolve: (value: T) => void = () => {};
	const promise = new Promise<T>((settle) => (resolve = settle));
	return { promise, resolve };
}

function viewFromSession(session: SessionPort): ScreenView {
	const view = initialView({
		cwd: session.cwd,
		file: session.sessionFile,
		model: session.model?.id,
		provider: session.model?.provider,
		credential: session.credential,
		thinkingLevel: session.thinkingLevel,
		messageCount: session.messageCount,
		approvalMode: session.approvalMode,
		taint: session.taint,
	});
	return { ...view, usage: { ...session.usageTotals }, contextTokens: session.contextUsage?.tokens };
}

export function App({ session, initialPrompt, initialAttachments, inputActive, onExit, home, historyFile, print, onDialog, startedPrompt }: AppProps) {
	const refreshClock = useRef(() => {});
	const { view, latest, dispatch, flush } = useSessionView(
		session,
		() => viewFromSession(session),
		// A new view brings the time with it: one render, not one for the view and one for the clock.
		() => refreshClock.current(),
	);
	const commands = useMemo(() => screenCommands(session), [session]);
	const history = useMemo(() => view.sessionPrompts.map((text) => ({ text })), [view.sessionPrompts]);
	const [savedHistory] = useState(() => (historyFile ? loadPromptHistory(historyFile, session.cwd, HISTORY_PROMPTS) : []));
	const completions = useCompletions(commands, session.cwd);
	const { columns, rows } = useTerminalSize();
	const { write } = useStdout();
	const [exitCode, setExitCode] = useState<number | undefined>(undefined);
	const printer = useTranscriptPrinter(view.transcript, columns, view.showThinking, print ?? write, session.tools, exitCode !== undefined);
	const printedWidth = useRef(columns);
	const [editorHeight, setEditorHeight] = useState(3);
	const [dialogHeight, setDialogHeight] = useState(0);
	const shell = useShellCommands(
		session,
		useCallback((item) => dispatch({ type: "ui_item", item }), [dispatch]),
		useCallback((text: string) => (session.maskSecrets ? session.maskSecrets(text) : text), [session]),
	);

	// Busy only from the session's events (run_start … run_end): runs the session starts itself count too.
	const running = isBusy(view) || view.compacting !== undefined;
	const animate = running || view.liveToolIds.length > 0 || view.retry !== undefined || shell.running !== undefined;
	const clock = useClock(animate, CLOCK_INTERVAL_MS);
	refreshClock.current = clock.refresh;
	const now = clock.now;

	const notify = useCallback((level: NoticeLevel, text: string) => dispatch({ type: "ui_notice", level, text }), [dispatch]);
	const dialogs = useDialogs(session, notify, inputActive);
	const dialogTitle = dialogs.current ? (dialogs.current.kind === "select" ? dialogs.current.options.title : dialogs.current.title) : undefined;
	const dialogId = dialogs.current?.id;
	// Once per dialog (by its id), not on every render while it is open.
	useEffect(() => {
		if (dialogTitle !== undefined) onDialog?.(dialogTitle);
	}, [dialogId]);

	const exit = useCallback(
		(code = 0) => {
			if (isBusy(latest())) {
				void Promise.resolve(session.abort()).catch(() => {});
				// What the live area showed stays in the scrollback.
				dispatch({ type: "ui_leave_run" });
			}
			flush();
			setExitCode((current) => current ?? code);
		},
		[session, flush, latest, dispatch],
	);

	/**
	 * Runs one prompt to its end; resolves with the text to give back when the run never started. `typed` is what
	 * the user wrote, shown and recalled where `text` stands for more.
	 */
	const runPrompt = useCallback(
		async (text: string, typed: string, images: ImageContent[]): Promise<string | undefined> => {
			const { runs: runsBefore, transcript: before } = latest();
			try {
				const sent = shell.withContext(text);
				await session.prompt(sent, { ...(sent === typed ? {} : { typed }), ...(images.length > 0 ? { images } : {}) });
				shell.contextSent();
				return undefined;
			} catch (error) {
				if (latest().runs !== runsBefore) shell.contextSent();
				const message = errorMessage(error);
				// The session may have just said the same (session_error) for this prompt: once is enough. Each
				// prompt that cannot start says why, so every Enter gets an answer.
				const said = latest().transcript.slice(before.length).some((item) => item.kind === "notice" && item.text === message);
				if (!said) notify("error", message);
				return latest().runs === runsBefore ? typed : undefined;
			}
		},
		[session, notify, latest, shell],
	);

	/**
	 * A prompt as typed text is sent, with the files its @-mentions name: a run when idle, a steering message into
	 * the run going on. A file that cannot go along is said, and nothing is sent.
	 */
	const send = useCallback(
		async (text: string, typed: string, read?: readonly Attachment[]): Promise<string | undefined> => {
			let prompt: AttachedPrompt;
			try {
				const model = session.model;
				const target = { acceptsImages: model?.input?.includes("image") ?? true, model: model ? `${model.provider}/${model.id}` : "the model" };
				prompt = attachMentions(text, typed, session.cwd, target, read);
			} catch (error) {
				notify("error", errorMessage(error));
				return typed;
			}
			if (!isBusy(latest())) return runPrompt(prompt.text, typed, prompt.images);
			if (prompt.images.length > 0) {
				notify("error", "An image goes with a new prompt, not into a run going on: send it once the run ends (Esc interrupts).");
				return typed;
			}
			try {
				await session.steer(prompt.text, prompt.text === typed ? {} : { typed });
				return undefined;
			} catch (error) {
				notify("error", errorMessage(error));
				return typed;
			}
		},
		[session, notify, runPrompt, latest],
	);

	const onSubmit = useCallback(
		async (text: string, typed = text, read?: readonly Attachment[]): Promise<string | undefined> => {
			const command = resolveCommand(text, commands);
			// A prompt template's or skill's command is sent as its prompt, and shown as the command line typed.
			if (command?.definition?.expand) {
				let expanded: string;
				try {
					expanded = await command.definition.expand(command.args);
				} catch (error) {
					notify("error", errorMessage(error));
					return undefined;
				}
				return send(expanded, typed, read);
			}
			if (command) {
				// A command may hand text back to the editor (a rewound prompt, to edit and send again).
				let editorText: string | undefined;
				const setEditorText = (next: string) => (editorText = next);
				await runSlashCommand(command, { session, notify, exit: () => exit(0), busy: isBusy(latest()), ui: dialogs.ui, setEditorText });
				return editorText;
			}
			if (await shell.run(text)) return undefined;
			return send(text, typed, read);
		},
		[session, commands, notify, exit, send, latest, dialogs.ui, shell],
	);

	/** What the editor sends is also kept for later sessions: as typed, or what a paste's marker stands for. */
	const onEditorSubmit = useCallback(
		(text: string, typed: string) => {
			if (historyFile) savePrompt(historyFile, session.cwd, hasMarker(typed) ? text : typed);
			return onSubmit(text, typed);
		},
		[historyFile, session, onSubmit],
	);

	const onInterrupt = useCallback((): string[] => {
		// Take the queue first, so nothing queued is delivered into the run being stopped.
		let queued: { steering: string[]; followUp: string[] } = { steering: [], followUp: [] };
		try {
			queued = session.clearQueue();
		} catch (error) {
			notify("error", errorMessage(error));
		}
		void Promise.resolve(session.abort()).catch((error: unknown) => notify("error", errorMessage(error)));
		return [...queued.steering, ...queued.followUp];
	}, [session, notify]);

	const onToggleThinking = useCallback(() => dispatch({ type: "ui_toggle_thinking" }), [dispatch]);
	// Shift+Tab runs /approval next (the policy knows which modes the project allows); the footer shows the mode,
	// so only a refusal is a notice.
	const onCycleApproval = useCallback(() => {
		if (!latest().session.approvalMode || !commands.get("approval")) return;
		const quiet = (level: NoticeLevel, text: string) => (level === "info" ? undefined : notify(level, text));
		void runSlashCommand(resolveCommand("/approval next", commands)!, { session, notify: quiet, busy: isBusy(latest()), ui: dialogs.ui });
	}, [session, commands, notify, latest, dialogs.ui]);
	const onExitKey = useCallback(() => exit(0), [exit]);
	const redraw = useCallback(() => printer.reprint(CLEAR_TERMINAL), [printer]);
	const handoff = useTerminalHandoff(redraw, notify);
	useScreenKeys({ onExpand: () => dispatch({ type: "ui_expand_last" }), onRedraw: redraw, onSuspend: handoff.suspend, onEscape: shell.stop, onToggleTodos: () => dispatch({ type: "ui_toggle_todos" }) }, inputActive);

	// Terminals reflow their lines when the width changes, so the live area Ink erases no longer has the
	// height Ink remembers, and its leftovers would stay in the scrollback. Start clean instead: clear the
	// terminal with its scrollback and print the transcript again at the new width.
	useEffect(() => {
		if (columns === printedWidth.current) return;
		const timer = setTimeout(() => {
			printedWidth.current = columns;
			printer.reprint(CLEAR_TERMINAL);
		}, RESIZE_SETTLE_MS);
		return () => clearTimeout(timer);
	}, [columns, printer]);

	useWhenIdle(() => void warmUpMarkdown(), { busy: running, quietMs: WARM_UP_QUIET_MS, inputActive });

	/** What the editor gets back of the prompt sent before the screen was up, as of its own: the text, if it never ran. */
	const [startedRestore] = useState(() => startedPrompt && deferred<string | undefined>());
	const [sentBefore] = useState(() => startedPrompt && startedRestore && { typed: startedPrompt.typed, restore: startedRestore.promise });
	const started = useRef(false);
	useEffect(() => {
		if (started.current) return;
		started.current = true;
		if (startedPrompt && startedRestore) {
			// The view's subscription (an effect above) has had the events so far, the run's start among them or not.
			startedPrompt.shown?.();
			if (historyFile) savePrompt(historyFile, session.cwd, startedPrompt.typed);
			const runsBefore = viewFromSession(session).runs;
			startedPrompt.done.then(
				() => startedRestore.resolve(undefined),
				(error: unknown) => {
					const message = errorMessage(error);
					if (!latest().transcript.some((item) => item.kind === "notice" && item.text === message)) notify("error", message);
					startedRestore.resolve(latest().runs === runsBefore ? startedPrompt.typed : undefined);
				},
			);
		}
		for (const text of hiddenCommandNotices(commands)) notify("warning", text);
		if (initialPrompt !== undefined && initialPrompt.trim() !== "") {
			void onSubmit(initialPrompt, initialPrompt, initialAttachments).then((restored) => {
				if (!inputActive) exit(restored === undefined ? 0 : 1);
			});
		} else if (!inputActive) {
			notify("error", "The interactive screen needs a terminal for input.");
			exit(2);
		}
	}, [initialPrompt, initialAttachments, inputActive, onSubmit, exit, notify, commands]);

	// Exit after one render without the live parts, so the terminal is left with the transcript only.
	useEffect(() => {
		if (exitCode !== undefined) onExit(exitCode);
	}, [exitCode, onExit]);

	const footer = footerHeight(view);
	// The todo list is shown while a run goes on.
	const todos = running ? view.todos : [];
	const queued = queuedHeight(view.queue.steering, view.queue.followUp) + (shell.running ? 1 : 0) + todoListHeight(todos, view.todosCollapsed);
	const dialog = dialogs.current;
	const budget = liveBudget({ rows, editor: dialog ? dialogHeight : editorHeight, footer, queued });
	const editorMaxRows = Math.max(1, Math.min(10, Math.floor(rows / 3)));

	// Exiting: nothing live is left, only the printed transcript.
	if (exitCode !== undefined) return null;
	return (
		<Box flexDirection="column" width={columns}>
			<LiveArea active={view.activeAssistant} runs={view.liveToolIds.map((id) => view.tools[id]).filter((run) => run !== undefined)} now={now} width={columns} budget={budget} tools={session.tools} />
			<TodoList items={todos} collapsed={view.todosCollapsed} width={columns} />
			<QueuedMessages steering={view.queue.steering} followUp={view.queue.followUp} width={columns} />
			{shell.running ? <ShellRow command={shell.running.command} startedAt={shell.running.startedAt} now={now} /> : null}
			{dialog ? <DialogHost dialog={dialog} width={columns} maxRows={dialogMaxRows({ rows, footer, queued })} active={inputActive} onHeightChange={setDialogHeight} /> : null}
			{/* Hidden, not unmounted, while a dialog is open: the draft stays. */}
			<Box display={dialog ? "none" : "flex"} flexDirection="column">
				<Editor
					running={running}
					width={columns}
					maxRows={editorMaxRows}
					inputActive={inputActive && !dialog}
					onSubmit={onEditorSubmit}
					onInterrupt={onInterrupt}
					onExit={onExitKey}
					onToggleThinking={onToggleThinking}
					onCycleApproval={onCycleApproval}
					onHeightChange={setEditorHeight}
					completions={completions}
					onExternalEdit={handoff.editExternally}
					savedHistory={savedHistory}
					history={history}
					sent={sentBefore}
				/>
			</Box>
			<Footer view={view} contextWindow={session.model?.contextWindow} now={now} width={columns} home={home} />
		</Box>
	);
}
