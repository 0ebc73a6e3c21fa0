// The one launcher every process the model causes goes through (bash calls, stdio MCP servers, command hooks):
// `confine(spec)` returns the spec to spawn, inside bubblewrap or Seatbelt as the mode and policy say. Where no
// launcher works, a mode chosen by default falls back to running unconfined and says so once; a mode the user
// asked for (--sandbox, settings) refuses to run the command instead.
import { type ConfineSpawn, findOnPath, type SandboxMode, type SpawnSpec } from "../../core/index.js";
import { bwrapArgs } from "./bwrap-args.js";
import { findLauncher, type Launcher, preloadLauncher } from "./launcher-probe.js";
import { seatbeltProfile } from "./seatbelt-profile.js";
import { sandboxPolicy, type SandboxNetwork, type SandboxPolicy, type SandboxPolicyInputs } from "./sandbox-policy.js";

export interface SandboxOptions extends Omit<SandboxPolicyInputs, "mode"> {
	/** The mode the user asked for (--sandbox, settings); undefined: the default. */
	mode?: SandboxMode;
	/** Where the launcher is looked for; default process.env.PATH. */
	pathVariable?: string;
	platform?: NodeJS.Platform;
}

/** Said once per process when the default mode cannot confine: what loom fell back to, and how to fix it. */
let fallbackSaid = false;

/** Lets a test see the notice again (the notice is once per process). */
export function resetFallbackNotice(): void {
	fallbackSaid = false;
}

/**
 * Throws ENOENT, as a spawn would, for a command not on PATH: inside the launcher it would only be the launcher's
 * exit status, and the spawner could not say "command not found".
 */
function checkFound(spec: SpawnSpec): void {
	if (spec.command.includes("/")) return;
	const found = findOnPath(spec.command, (spec.env ?? process.env).PATH ?? "") !== undefined;
	if (!found) throw Object.assign(new Error(`spawn ${spec.command} ENOENT`), { code: "ENOENT" });
}

export class Sandbox {
	/** Undefined until first asked: the default depends on the probe, which waits for the first command. */
	private chosenMode: SandboxMode | undefined;
	/** The mode was asked for (--sandbox, settings, /sandbox) rather than defaulted. */
	private explicit: boolean;
	private notifyFallback: (text: string) => void = () => {};
	private network: SandboxNetwork | undefined;
	/** Folders and files the user allowed writing for this session (/sandbox allow PATH). */
	private readonly grants: string[] = [];

	constructor(private readonly options: SandboxOptions) {
		this.explicit = options.mode !== undefined;
		this.chosenMode = options.mode;
	}

	/** The mode in force: the one asked for, else workspace-write where a launcher works, else off. */
	get mode(): SandboxMode {
		this.chosenMode ??= this.launcher().kind === "none" ? "off" : "workspace-write";
		return this.chosenMode;
	}

	/** The launcher this sandbox uses, or why there is none. */
	launcher(): Launcher {
		return findLauncher(this.options.pathVariable ?? process.env.PATH, this.options.platform ?? process.platform);
	}

	/** Starts probing the launcher in the background unless the sandbox is off: the first command then need not. */
	preload(): void {
		if (this.explicit && this.chosenMode === "off") return;
		preloadLauncher(this.options.pathVariable ?? process.env.PATH, this.options.platform ?? process.platform);
	}

	/** Switches the mode (the screen's /sandbox); throws when no launcher can confine on this machine. */
	setMode(mode: SandboxMode): void {
		const launcher = this.launcher();
		if (mode !== "off" && launcher.kind === "none") throw new Error(`The sandbox cannot run here: ${launcher.reason}. To have it, ${launcher.fix}.`);
		this.chosenMode = mode;
		this.explicit = true;
	}

	/** Where the fallback notice is said (the session's notices). */
	onFallback(notify: (text: string) => void): void {
		this.notifyFallback = notify;
	}

	/** The hosts the settings let commands reach through loom's proxy (none: the network is closed). */
	get networkAllow(): readonly string[] {
		return this.options.settings?.network?.allow ?? [];
	}

	/** The network the commands get: the policy's, with the proxy's address once loom's proxy listens. */
	useNetwork(network: SandboxNetwork): void {
		this.network = network;
	}

	/** Lets commands write `path` (absolute) for the rest of the session, in workspace-write. */
	allowWrite(path: string): void {
		if (!this.grants.includes(path)) this.grants.push(path);
	}

	get sessionGrants(): readonly string[] {
		return this.grants;
	}

	/** The policy in force for the current mode. */
	policy(): SandboxPolicy {
		const policy = sandboxPolicy({ ...this.options, mode: this.mode });
		const granted = policy.mode === "workspace-write" ? { ...policy, writableRoots: [...policy.writableRoots, ...this.grants] } : policy;
		return this.network ? { ...granted, network: this.network } : granted;
	}

	readonly confine: ConfineSpawn = (spec: SpawnSpec): SpawnSpec => {
		if (this.explicit && this.chosenMode === "off") return spec;
		const launcher = this.launcher();
		if (launcher.kind === "none") {
			if (this.explicit) {
				throw new Error(`The sandbox (${this.mode}) cannot run here: ${launcher.reason}, so the command was not run. To have it, ${launcher.fix}; or run loom with --sandbox off.`);
			}
			if (!fallbackSaid) {
				fallbackSaid = true;
				this.notifyFallback(this.fallbackText());
			}
			return spec;
		}
		if (this.mode === "off") return spec;
		const policy = this.policy();
		checkFound(spec);
		if (launcher.kind === "bwrap") return { ...spec, command: launcher.path, args: bwrapArgs(policy, spec) };
		return { ...spec, command: launcher.path, args: ["-p", seatbeltProfile(policy), spec.command, ...spec.args] };
	};

	private fallbackText(): string {
		const launcher = this.launcher();
		const reason = launcher.kind === "none" ? launcher.reason : "";
		const fix = launcher.kind === "none" ? launcher.fix : "";
		return `The sandbox is off: ${reason}, so commands and MCP servers run unconfined (with everything you can reach). To confine them, ${fix}; to keep it off without this notice, set "sandbox": {"mode": "off"} in settings or pass --sandbox off.`;
	}
}
