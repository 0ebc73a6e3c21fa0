// A real terminal for end-to-end tests: loom inside tmux, typed into (send-keys) and read (capture-pane) as a user would.
import { execFileSync } from "node:child_process";

export function hasTmux(): boolean {
	try {
		execFileSync("tmux", ["-V"], { stdio: "ignore" });
		return true;
	} catch {
		return false;
	}
}

export function shellQuote(value: string): string {
	return `'${value.replace(/'/g, `'\\''`)}'`;
}

export interface Terminal {
	/** The tmux session's name, for `-t`. */
	session: string;
	/** Runs a tmux command on this terminal's own server. */
	tmux(...args: string[]): string;
	/** What the pane shows now (wrapped lines joined when the terminal was made with joinWrapped). */
	screen(): string;
	/** The whole scrollback plus the screen, wrapped lines joined. */
	history(): string;
	waitForScreen(check: (text: string) => boolean, what: string, timeoutMs?: number): Promise<string>;
	/** Text first, then Enter, in two writes: one write with both would read as a paste. */
	typeLine(text: string): Promise<void>;
}

/** A terminal on its own tmux server (`socket`), so test files never share one. */
export function tmuxTerminal(socket: string, options: { session?: string; joinWrapped?: boolean } = {}): Terminal {
	const session = options.session ?? "loom";
	const tmux = (...args: string[]) => execFileSync("tmux", ["-u", "-L", socket, "-f", "/dev/null", ...args], { encoding: "utf8" });
	const screen = () => tmux("capture-pane", "-p", ...(options.joinWrapped ? ["-J"] : []), "-t", session);
	return {
		session,
		tmux,
		screen,
		history: () => tmux("capture-pane", "-p", "-J", "-S", "-", "-t", session),
		async waitForScreen(check, what, timeoutMs = 20_000) {
			const deadline = Date.now() + timeoutMs;
			for (;;) {
				const text = screen();
				if (check(text)) return text;
				if (Date.now() > deadline) throw new Error(`The screen never showed ${what}. It shows:\n${text}`);
				await new Promise((resolve) => setTimeout(resolve, 100));
			}
		},
		async typeLine(text) {
			tmux("send-keys", "-t", session, "-l", text);
			await new Promise((resolve) => setTimeout(resolve, 150));
			tmux("send-keys", "-t", session, "Enter");
		},
	};
}
