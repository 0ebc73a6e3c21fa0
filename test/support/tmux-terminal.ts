// A real terminal for end-to-end tests: a tmux server of its own (one socket per test file), one pane running a
// command. Tests type like a user (send-keys) and read the screen like one (capture-pane, the pane's title).
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { LOOM_BIN } from "./loom-process.js";
import { waitFor } from "./wait-for.js";

/**
 * Whether tmux is on the PATH. Looked up without running it, so that a tmux test left out of the process project
 * fails there (it may not spawn) instead of being skipped.
 */
export function hasTmux(): boolean {
	return (process.env.PATH ?? "").split(delimiter).some((dir) => dir !== "" && existsSync(join(dir, "tmux")));
}

export function shellQuote(value: string): string {
	return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The shell command that runs the built loom with `args` in a clean environment (no API keys from this
 * machine, no CI variable: Ink draws nothing live in CI), then prints its exit code.
 */
export function loomCommand(home: string, args: string[], extraEnv: Record<string, string> = {}): string {
	const env = [
		`PATH=${process.env.PATH ?? "/usr/bin:/bin"}`,
		`HOME=${join(home, "user-home")}`,
		`LOOM_HOME=${home}`,
		"TERM=xterm-256color",
		"LANG=C.UTF-8",
		...Object.entries(extraEnv).map(([name, value]) => `${name}=${value}`),
	];
	const loom = ["env", "-i", ...env, process.execPath, LOOM_BIN, ...args].map(shellQuote).join(" ");
	return `${loom}; echo "[loom exited with $?]"`;
}

/** Occurrences of `needle`, ignoring how lines were wrapped. */
export function count(text: string, needle: string): number {
	const flat = (value: string) => value.replace(/\s+/g, " ");
	return flat(text).split(flat(needle)).length - 1;
}

export interface PaneOptions {
	cwd: string;
	columns: number;
	rows: number;
}

export class TmuxTerminal {
	readonly socket: string;
	readonly session = "loom";

	/** `joinWrapped`: screen() joins lines the terminal wrapped, for checks on long lines. */
	constructor(
		name: string,
		private readonly options: { joinWrapped?: boolean } = {},
	) {
		this.socket = `${name}-${process.pid}`;
	}

	tmux(...args: string[]): string {
		return execFileSync("tmux", ["-u", "-L", this.socket, "-f", "/dev/null", ...args], { encoding: "utf8" });
	}

	/** Starts `command` (a shell command line) in the pane; the pane stays after it ends, to read what it left. */
	start(command: string, { cwd, columns, rows }: PaneOptions): void {
		this.tmux("new-session", "-d", "-s", this.session, "-x", String(columns), "-y", String(rows), "-c", cwd, command);
		this.tmux("set-option", "-t", this.session, "remain-on-exit", "on");
		this.tmux("set-option", "-s", "escape-time", "10");
	}

	/** The visible screen; with `styles`, SGR sequences included (capture-pane -e). */
	screen(styles = false): string {
		return this.tmux("capture-pane", "-p", ...(styles ? ["-e"] : []), ...(this.options.joinWrapped ? ["-J"] : []), "-t", this.session);
	}

	/** The whole scrollback plus the screen, wrapped lines joined. */
	history(): string {
		return this.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", this.session);
	}

	/** The pane's title, which a program can change with OSC 0 or OSC 2. */
	title(): string {
		return this.tmux("display-message", "-p", "-t", this.session, "#{pane_title}").trimEnd();
	}

	setTitle(title: string): void {
		this.tmux("select-pane", "-t", this.session, "-T", title);
	}

	resize(columns: number, rows: number): void {
		this.tmux("resize-window", "-t", this.session, "-x", String(columns), "-y", String(rows));
	}

	sendKeys(...keys: string[]): void {
		this.tmux("send-keys", "-t", this.session, ...keys);
	}

	/** Text first, then the key once the editor shows the text, in two writes: one write with both would read as a paste. */
	async typeLine(text: string): Promise<void> {
		this.sendKeys("-l", text);
		await this.waitForScreen((t) => t.includes(`› ${text}`), `"${text}" in the editor`);
		this.sendKeys("Enter");
	}

	waitForScreen(check: (text: string) => boolean, what: string, timeoutMs = 60_000): Promise<string> {
		return waitFor(() => this.screen(), check, { timeoutMs, intervalMs: 100, what: `the screen to show ${what}`, show: (text) => `It shows:\n${text}` });
	}

	/** The pid of what the pane's shell runs (its first child: loom, when `env` has exec'd node). */
	async paneChild(): Promise<number> {
		const shell = this.tmux("display-message", "-p", "-t", this.session, "#{pane_pid}").trim();
		return Number(await waitFor(() => childOf(shell), Boolean, { what: "the pane's program" }));
	}

	kill(): void {
		try {
			this.tmux("kill-server");
		} catch {}
	}
}

/** The first child process of `pid`, or "" while it has none. */
function childOf(pid: string): string {
	try {
		return execFileSync("pgrep", ["-P", pid], { encoding: "utf8" }).trim().split("\n")[0] ?? "";
	} catch {
		return "";
	}
}
