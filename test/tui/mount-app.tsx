// Renders the whole screen (App) over a fake session in a sized in-memory terminal, for Ink tests.
import { render } from "ink";
import { afterEach } from "vitest";
import type { Attachment } from "../../src/core/ai/attach-file.js";
import { App } from "../../src/tui/components/App.js";
import type { FakeSession } from "./fake-session.js";
import { plain, screenOf, typeKeys, waitForFrame } from "./render-helpers.js";
import { TestStdin, TestStdout } from "./terminal-streams.js";

const mounted: Array<() => void> = [];
afterEach(() => {
	for (const unmount of mounted.splice(0)) unmount();
});

export interface MountOptions {
	rows?: number;
	columns?: number;
	initialPrompt?: string;
	initialAttachments?: readonly Attachment[];
	/** False: no keyboard (as without a terminal). Default true. */
	inputActive?: boolean;
	/** The file prompts are kept in across sessions; default none. */
	historyFile?: string;
}

/** Mounts App; unmounted after each test. `frame()` is what the terminal shows: the printed transcript, then the live frame. */
export function mount(session: FakeSession, options: MountOptions = {}) {
	const stdout = new TestStdout(options.columns ?? 80, options.rows ?? 40);
	const screen = screenOf(() => stdout.lastFrame());
	const stdin = new TestStdin();
	const exits: number[] = [];
	const instance = render(
		<App session={session} inputActive={options.inputActive ?? true} initialPrompt={options.initialPrompt} initialAttachments={options.initialAttachments} onExit={(code) => exits.push(code)} home="/home/u" historyFile={options.historyFile} print={screen.print} />,
		{
			stdout: stdout as unknown as NodeJS.WriteStream,
			stdin: stdin as unknown as NodeJS.ReadStream,
			debug: true,
			exitOnCtrlC: false,
			patchConsole: false,
		},
	);
	mounted.push(() => instance.unmount());
	const frame = () => plain(screen.frame());
	const type = (...keys: string[]) => typeKeys(stdin, ...keys);
	const until = (check: (frame: string) => boolean) => waitForFrame(screen.frame, check);
	return { stdout, stdin, frame, type, until, exits, printed: screen.printed, unmount: () => instance.unmount() };
}
