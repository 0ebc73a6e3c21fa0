// The keys typed while the screen loads. From the moment loom knows it will draw the screen, the terminal is in
// raw mode and loom reads what is typed: nothing is echoed over the screen to come, Enter stays Enter (not a line
// ending for the terminal to hold the line until), and the keys wait here for the screen to take them.
import { StringDecoder } from "node:string_decoder";

export interface TypedAhead {
	/** Stops reading and hands over what was typed; later keys stay in the terminal for the next reader. Once. */
	release(): string;
	/** The first line typed, if Enter (or a line feed) has ended it and nothing was released: left where it is. */
	line(): string | undefined;
	/** line(), taken out of what release() hands over, its Enter with it. */
	takeLine(): string | undefined;
	/** Calls `listener` with what release() would hand over: now, then after each read and take until the release. */
	onTyped(listener: (typed: string) => void): void;
}

/**
 * Holds the keys typed on `stdin` (a terminal) until released. Ctrl+C is read as a key in raw mode: before the
 * screen is up it stops loom as the signal the terminal would have sent does.
 */
export function holdTypedKeys(stdin: NodeJS.ReadStream, interrupt: () => void = () => process.kill(process.pid, "SIGINT")): TypedAhead {
	const decoder = new StringDecoder("utf8");
	let typed = "";
	let listener = (_typed: string) => {};
	// Read on "readable", not "data": once this listener goes, what comes next stays in the stream for the next
	// reader, and the stream is never paused (a pause lands a tick later and would stop the screen's own reading).
	const onReadable = () => {
		let chunk: Buffer | string | null;
		while ((chunk = stdin.read() as Buffer | string | null) !== null) {
			const text = typeof chunk === "string" ? chunk : decoder.write(chunk);
			if (text.includes("\u0003")) interrupt();
			else typed += text;
		}
		listener(typed);
	};
	stdin.setRawMode(true);
	stdin.on("readable", onReadable);
	let released = false;
	return {
		line() {
			// Keys typed before raw mode come through the terminal's line discipline, Enter as a line feed.
			const end = typed.search(/[\r\n]/);
			return released || end === -1 ? undefined : typed.slice(0, end);
		},
		takeLine() {
			const line = this.line();
			if (line !== undefined) {
				typed = typed.slice(line.length + 1);
				listener(typed);
			}
			return line;
		},
		onTyped(next) {
			listener = next;
			if (!released) next(typed);
		},
		release() {
			if (released) return "";
			released = true;
			stdin.off("readable", onReadable);
			return typed + decoder.end();
		},
	};
}
