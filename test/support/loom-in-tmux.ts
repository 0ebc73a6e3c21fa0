// For a tmux test file: the built loom against one scripted model server, each start in a terminal of its own.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach } from "vitest";
import { serverFlags, useScriptedServer } from "./loom-process.js";
import type { ScriptedModelServer } from "./scripted-model-server.mjs";
import { type Workspace, workspace } from "./temp-dir.js";
import { TmuxTerminal, loomCommand } from "./tmux-terminal.js";

export interface OpenOptions {
	/** loom's arguments after the flags pointing it at the scripted server. */
	args?: string[];
	/** Extra environment for loom (loomCommand's clean environment otherwise). */
	env?: Record<string, string>;
	/** Default 100 × 30. */
	columns?: number;
	rows?: number;
	/** Where loom runs: default a new workspace. */
	workspace?: Workspace;
	/** The pane's shell command around loom's, e.g. to run something after it. */
	command?: (loom: string) => string;
	/** Passed to TmuxTerminal: screen() joins wrapped lines. */
	joinWrapped?: boolean;
	/** Take checkpoints (/rewind's files); default none, as serverFlags. */
	checkpoints?: boolean;
}

export interface LoomInTmux extends Workspace {
	terminal: TmuxTerminal;
}

export interface LoomsInTmux {
	/** Stands for the server, which starts in beforeAll (after building loom) and is reset before each test. */
	server: ScriptedModelServer;
	/** A new workspace whose LOOM_HOME has the user-home that loomCommand makes HOME. */
	workspace(): Workspace;
	/**
	 * Starts loom in a new tmux terminal (tmux server) and returns at once. A terminal opened in a test ends after
	 * that test; one opened in beforeAll, after the describe block's tests.
	 */
	open(options?: OpenOptions): LoomInTmux;
}

/** `name` names the terminals' tmux sockets; call it inside the describe block whose tests use it. */
export function useLoomInTmux(name: string): LoomsInTmux {
	const server = useScriptedServer();
	const opened: TmuxTerminal[] = [];
	/** Terminals before this index were opened before the current test. */
	let fromTests = 0;
	beforeEach(() => {
		fromTests = opened.length;
	});
	afterEach(() => {
		for (const terminal of opened.splice(fromTests)) terminal.kill();
	});
	afterAll(() => {
		for (const terminal of opened.splice(0)) terminal.kill();
	});

	let count = 0;
	const newWorkspace = (): Workspace => {
		const ws = workspace();
		mkdirSync(join(ws.home, "user-home"), { recursive: true });
		return ws;
	};
	return {
		server,
		workspace: newWorkspace,
		open(options = {}) {
			const ws = options.workspace ?? newWorkspace();
			// A socket of its own each time: a tmux server just killed may still hold a reused one.
			const terminal = new TmuxTerminal(`${name}-${count++}`, { joinWrapped: options.joinWrapped });
			opened.push(terminal);
			const loom = loomCommand(ws.home, [...serverFlags(server.openaiBaseUrl, { checkpoints: options.checkpoints }), ...(options.args ?? [])], options.env);
			terminal.start(options.command ? options.command(loom) : loom, { cwd: ws.cwd, columns: options.columns ?? 100, rows: options.rows ?? 30 });
			return { terminal, cwd: ws.cwd, home: ws.home };
		},
	};
}
