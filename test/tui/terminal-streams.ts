// In-memory stand-ins for a terminal's stdin and stdout, with a size, for rendering the whole screen.
import { EventEmitter } from "node:events";

export class TestStdout extends EventEmitter {
	isTTY: boolean;
	frames: string[] = [];
	constructor(
		public columns = 80,
		public rows = 24,
		isTTY = false,
	) {
		super();
		this.isTTY = isTTY;
	}
	write = (data: string): boolean => {
		this.frames.push(data);
		return true;
	};
	lastFrame = (): string | undefined => this.frames[this.frames.length - 1];
	resize(columns: number, rows: number): void {
		this.columns = columns;
		this.rows = rows;
		this.emit("resize");
	}
}

export class TestStdin extends EventEmitter {
	isTTY: boolean;
	rawMode = false;
	private pending: string[] = [];
	constructor(isTTY = true) {
		super();
		this.isTTY = isTTY;
	}
	write = (data: string): void => {
		this.pending.push(data);
		this.emit("readable");
		this.emit("data", data);
	};
	read = (): string | null => this.pending.shift() ?? null;
	setRawMode(mode: boolean): void {
		this.rawMode = mode;
	}
	setEncoding(): void {}
	resume(): void {}
	pause(): void {}
	ref(): void {}
	unref(): void {}
}
