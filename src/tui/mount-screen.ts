// Mounts the screen with Ink. Kept apart from index.ts so that Ink and React are loaded only by
// loadScreen() below, once the build of React to use has been chosen.
import { render } from "ink";
import { createElement } from "react";
import { App, type AppProps } from "./components/App.js";
import { withPasteFilter } from "./paste-filter.js";

export interface MountOptions {
	stdin: NodeJS.ReadStream;
	stdout: NodeJS.WriteStream;
	stderr: NodeJS.WriteStream;
	patchConsole: boolean;
}

export interface MountedScreen {
	unmount(): void;
	waitUntilExit(): Promise<unknown>;
}

export function mountScreen(props: AppProps, options: MountOptions): MountedScreen {
	return render(createElement(App, props), {
		...options,
		stdin: withPasteFilter(options.stdin),
		exitOnCtrlC: false,
		// Unthrottled: the screen limits its own renders (stream updates at most every 33 ms, the clock every
		// 100 ms), and the transcript printer needs Ink to draw each committed frame at once (a deferred draw
		// would leave the previous live area, with the text just printed, below it for a moment).
		maxFps: 0,
		kittyKeyboard: { mode: "auto", flags: ["disambiguateEscapeCodes"] },
	});
}
