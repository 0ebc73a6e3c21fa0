// Mounts the screen with Ink. Kept apart from index.ts so that Ink and React are loaded only by
// loadScreen() below, once the build of React to use has been chosen.
import { render } from "ink";
import { createElement } from "react";
import type { SelectOptions, UiChoice } from "../core/index.js";
import { App, type AppProps, StandaloneDialog } from "./components/index.js";
import { DialogQueue } from "./dialogs/index.js";
import { withPasteFilter } from "./editor/index.js";

export interface MountOptions {
	stdin: NodeJS.ReadStream;
	stdout: NodeJS.WriteStream;
	stderr: NodeJS.WriteStream;
	patchConsole: boolean;
	/** Told of each focus report the terminal sends (focus reporting on). */
	onFocus?: (focused: boolean) => void;
	/** Keys typed before the screen was up, read already. */
	typedAhead?: string;
}

export interface MountedScreen {
	unmount(): void;
	waitUntilExit(): Promise<unknown>;
}

export function mountScreen(props: AppProps, { onFocus, typedAhead, ...options }: MountOptions): MountedScreen {
	return render(createElement(App, props), {
		...options,
		stdin: withPasteFilter(options.stdin, onFocus, typedAhead),
		exitOnCtrlC: false,
		// Unthrottled: the screen limits its own renders (stream updates at most every 33 ms, the clock every
		// 100 ms), and the transcript printer needs Ink to draw each committed frame at once (a deferred draw
		// would leave the previous live area, with the text just printed, below it for a moment).
		maxFps: 0,
		kittyKeyboard: { mode: "auto", flags: ["disambiguateEscapeCodes"] },
	});
}

/** Asks one question with a picker drawn on `options.stdout`; "interrupted" on Ctrl+C, undefined on Esc or Ctrl+D. */
export async function mountPicker<T>(select: SelectOptions, choices: readonly UiChoice<T>[], options: MountOptions): Promise<{ value: T } | "dismissed" | "interrupted"> {
	const queue = new DialogQueue(() => {}, true);
	let interrupted = false;
	const answer = queue.select(select, choices);
	const dialog = queue.current();
	if (!dialog) return "dismissed";
	// Raw mode before the first frame: a key pressed as soon as the list shows is a key, not a line-editing
	// character for the terminal (Ctrl+D would end the input). Ink turns it off again when it unmounts.
	options.stdin.setRawMode?.(true);
	const instance = render(createElement(StandaloneDialog, { dialog, onInterrupt: () => (interrupted = true) }), {
		...options,
		stdin: withPasteFilter(options.stdin),
		exitOnCtrlC: false,
	});
	try {
		const value = await answer;
		if (interrupted) return "interrupted";
		return value === undefined ? "dismissed" : { value };
	} finally {
		// Leave the terminal as it was: the picker goes, the shell prompt or the screen takes over.
		instance.clear();
		instance.unmount();
		await instance.waitUntilExit();
	}
}
