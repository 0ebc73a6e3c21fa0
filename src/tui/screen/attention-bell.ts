// Calling the user back to the terminal: when a run ends, or a run waits for an answer (an approval, a question),
// while the terminal is not focused, or after a run longer than a threshold, the screen rings: BEL, or a desktop
// notification (OSC 9, OSC 777) where the terminal is known to show one. Whether the terminal is focused comes
// from focus reporting (CSI ?1004h: the terminal sends CSI I and CSI O); a terminal that never reports counts as
// focused, so only the threshold rings there.
import { type NotifyVia, type Settings, stripControls } from "../../core/index.js";

/** Focus reporting on and off. */
export const FOCUS_ON = "\u001b[?1004h";
export const FOCUS_OFF = "\u001b[?1004l";

const DEFAULT_AFTER_SECONDS = 30;

type Ring = Exclude<NotifyVia, "auto" | "off">;

/** What "auto" writes in a terminal: OSC 9 or 777 where it shows a notification, else BEL (tmux and screen pass BEL on). */
export function autoRing(env: NodeJS.ProcessEnv): Ring {
	if (env.TMUX || env.STY) return "bel";
	const program = env.TERM_PROGRAM ?? "";
	const term = env.TERM ?? "";
	if (["iTerm.app", "WezTerm", "ghostty"].includes(program) || term.includes("kitty") || env.KITTY_WINDOW_ID) return "osc9";
	if (env.VTE_VERSION || term.startsWith("rxvt") || term.startsWith("foot")) return "osc777";
	return "bel";
}

/** The bytes that ring `ring` with `message` (stripped of controls: it ends up inside an escape sequence). */
export function ringSequence(ring: Ring, message: string): string {
	const text = stripControls(message).replace(/;/g, ",").slice(0, 200);
	if (ring === "osc9") return `\u001b]9;${text}\u0007`;
	if (ring === "osc777") return `\u001b]777;notify;loom;${text}\u0007`;
	return "\u0007";
}

export interface AttentionBellOptions {
	write: (text: string) => void;
	setting: Settings["notify"];
	env?: NodeJS.ProcessEnv;
	now?: () => number;
}

export class AttentionBell {
	private readonly ring: Ring | undefined;
	private readonly afterMs: number;
	private readonly now: () => number;
	/** undefined until the terminal reports focus. */
	private focused: boolean | undefined;
	private runStartedAt: number | undefined;

	constructor(private readonly options: AttentionBellOptions) {
		const setting = typeof options.setting === "object" ? options.setting : { via: options.setting };
		const via = setting.via ?? "auto";
		this.ring = via === "off" ? undefined : via === "auto" ? autoRing(options.env ?? process.env) : via;
		this.afterMs = (setting.afterSeconds ?? DEFAULT_AFTER_SECONDS) * 1000;
		this.now = options.now ?? Date.now;
	}

	/** False for `notify: "off"`: nothing to ring, focus reporting not needed. */
	get enabled(): boolean {
		return this.ring !== undefined;
	}

	setFocused(focused: boolean): void {
		this.focused = focused;
	}

	runStarted(): void {
		this.runStartedAt = this.now();
	}

	runEnded(status: "done" | "error" | "aborted"): void {
		if (status !== "aborted" && this.wanted()) this.sound(status === "done" ? "loom: done" : "loom: the run failed");
		this.runStartedAt = undefined;
	}

	/** A run waits for the user's answer; questions outside a run were asked of a user at the keyboard. */
	waiting(title: string): void {
		if (this.runStartedAt !== undefined && this.wanted()) this.sound(`loom is waiting: ${title}`);
	}

	private wanted(): boolean {
		if (this.focused === false) return true;
		return this.runStartedAt !== undefined && this.now() - this.runStartedAt >= this.afterMs;
	}

	private sound(message: string): void {
		if (this.ring) this.options.write(ringSequence(this.ring, message));
	}
}
