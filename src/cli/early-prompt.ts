// A prompt typed and sent (Enter) before the screen is up: it runs as soon as the session exists, while the screen
// still loads, and the screen, once up, shows that run under way as if its editor had sent it. The screen reads the
// session through a port that first replays the events it missed, and its dialogs answer what the run asked meanwhile.
import type { AgentSession, SessionEvent, SessionListener, SessionUi, SelectOptions, UiChoice, InputOptions } from "../core/index.js";

/** What the screen is handed of a prompt sent before it was up. */
export interface EarlyPrompt {
	/** The line as typed. */
	typed: string;
	/** The session as the screen reads it: each subscriber gets the events since the prompt was sent, then the rest. */
	session: AgentSession;
	/** The prompt's run, as the editor's prompt() would have returned it: rejects when the run cannot start. */
	done: Promise<void>;
	/** The screen's view has subscribed: the events before it are no longer kept for later subscribers. */
	shown(): void;
}

/**
 * Whether a typed line may be sent before the screen is up: a plain prompt as the editor would send it. Commands
 * (/), shell commands (!), files (@), a trailing backslash (a newline asked for), control keys and escape
 * sequences (arrows, pastes) are left to the editor, which takes the line as typed.
 */
export function sendableEarly(line: string): boolean {
	if (line.trim() === "" || /^\s*[/!]/.test(line) || line.includes("@") || line.endsWith("\\")) return false;
	// biome-ignore lint/suspicious/noControlCharactersInRegex: control keys are what is looked for
	return !/[\u0000-\u001f\u007f-\u009f]/.test(line);
}

/**
 * Resolves when the screen may start loading beside a prompt typed ahead of it: once that prompt's request has been
 * written to the connection (the screen's code, compiled on the one thread, would otherwise go ahead of it), once its
 * run is over (a prompt that could not start never sends), or after `fallbackMs` (a prompt that waits before it
 * sends, for MCP servers or a hook, holds the screen back no longer).
 */
export function screenMayLoad(session: Pick<AgentSession, "onModelRequest">, early: Pick<EarlyPrompt, "done">, fallbackMs: number): Promise<void> {
	return new Promise((resolve) => {
		const go = () => {
			stopRequests();
			clearTimeout(timer);
			resolve();
		};
		const timer = setTimeout(go, fallbackMs);
		timer.unref();
		// After the write's own callbacks: the request is on its way before the screen's loading takes the thread.
		const stopRequests = session.onModelRequest(() => setImmediate(go));
		void early.done.catch(() => {}).finally(go);
	});
}

/** Sends `typed` on `session` now; the screen takes over the returned session. */
export function sendEarly(session: AgentSession, typed: string): EarlyPrompt {
	const relay = new ScreenUiRelay(session.ui);
	session.setUi(relay);
	const recorded: SessionEvent[] = [];
	let readers: readonly SessionListener[] = [];
	// The one listener that sees every event once, in order: what it saw before a reader came is replayed to that
	// reader, what comes after is passed on to every reader. Subscribing the readers to the session itself could
	// miss an event whose delivery was under way.
	let recording = true;
	session.subscribe(async (event) => {
		if (recording) recorded.push(event);
		for (const reader of readers) await reader(event);
	});
	// While a reader is given the events it missed, it reads the totals as they were then (the view's baseline at
	// session_open); the conversation it slices itself by the event's count.
	const before = { usageTotals: { ...session.usageTotals }, contextUsage: session.contextUsage };
	let replaying = false;
	const done = session.prompt(typed);
	const port = new Proxy(session, {
		get(target, property) {
			if (property === "subscribe") {
				return (listener: SessionListener) => {
					replaying = true;
					try {
						for (const event of recorded) void listener(event);
					} finally {
						replaying = false;
					}
					readers = [...readers, listener];
					return () => {
						readers = readers.filter((reader) => reader !== listener);
					};
				};
			}
			if (property === "setUi") {
				return (ui: SessionUi) => {
					target.setUi(ui);
					if (ui !== relay && ui.interactive) relay.arrived(ui);
				};
			}
			if (replaying && (property === "usageTotals" || property === "contextUsage")) return before[property];
			const value: unknown = Reflect.get(target, property, target);
			return typeof value === "function" ? value.bind(target) : value;
		},
	});
	const shown = () => {
		recording = false;
		recorded.length = 0;
	};
	return { typed, session: port, done, shown };
}

/**
 * The session's ui until the screen's: questions the run asks meanwhile (an approval) wait for the screen and are
 * asked there; notices go where they went before.
 */
class ScreenUiRelay implements SessionUi {
	readonly interactive = true;
	private screen: SessionUi | undefined;
	private readonly screenUi: Promise<SessionUi>;
	arrived: (ui: SessionUi) => void = () => {};

	constructor(private readonly before: SessionUi) {
		this.screenUi = new Promise((resolve) => {
			this.arrived = (ui) => {
				this.screen ??= ui;
				resolve(ui);
			};
		});
	}

	notify(level: Parameters<SessionUi["notify"]>[0], text: string): void {
		(this.screen ?? this.before).notify(level, text);
	}

	select<T>(options: SelectOptions, choices: readonly UiChoice<T>[]): Promise<T | undefined> {
		return this.screenUi.then((ui) => ui.select(options, choices));
	}

	confirm(title: string, message?: string, signal?: AbortSignal): Promise<boolean> {
		return this.screenUi.then((ui) => ui.confirm(title, message, signal));
	}

	input(title: string, options?: InputOptions): Promise<string | undefined> {
		return this.screenUi.then((ui) => ui.input(title, options));
	}
}
