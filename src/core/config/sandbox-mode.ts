// The sandbox modes, and how each is named and explained wherever it is shown (--help, /sandbox, the README).
// Their own module, like the approval modes: the command line reads them before settings' schema loads.
export const SANDBOX_MODES = ["off", "workspace-write", "read-only"] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];

export const SANDBOX_MODE_TEXT: Readonly<Record<SandboxMode, { meaning: string; brief: string }>> = {
	off: { meaning: "commands run unconfined, with everything the user can reach", brief: "no confinement" },
	"workspace-write": {
		meaning: "commands may write only the working tree and the temp dir (not .git, .loom and the like), the network is closed",
		brief: "write the project and temp only, no network",
	},
	"read-only": { meaning: "commands may write nothing but a private /tmp, the network is closed", brief: "write nothing, no network" },
};
