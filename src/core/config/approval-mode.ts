// The approval modes, from the loosest to the strictest (plan is read-only's strictness plus a plan to approve), and how each is named and explained wherever it is shown
// (the /approval command, --help, an ACP client's list of modes). Their own module: the command line reads them at
// startup, before anything heavy (settings' schema library) is loaded.
export const APPROVAL_MODES = ["auto", "ask", "read-only", "plan"] as const;
export type ApprovalMode = (typeof APPROVAL_MODES)[number];

// The sandbox modes, for the same reason (what each means: the sandbox plug).
export const SANDBOX_MODES = ["off", "workspace-write", "read-only"] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];

export interface ApprovalModeText {
	/** As a title: "Read-only". */
	name: string;
	/** What the mode lets run, in a sentence's middle: "only tools that change nothing run". */
	meaning: string;
	/** The same in a few words, for --help. */
	brief: string;
}

export const APPROVAL_MODE_TEXT: Readonly<Record<ApprovalMode, ApprovalModeText>> = {
	auto: { name: "Auto", meaning: "everything runs, except what a guard or a deny rule blocks", brief: "run everything guards allow" },
	ask: { name: "Ask", meaning: "reading runs freely; each command and file change waits for your answer", brief: "changes wait for you" },
	"read-only": { name: "Read-only", meaning: "only tools that change nothing run", brief: "only reading" },
	plan: {
		name: "Plan",
		meaning: "only tools that change nothing run while the agent plans; it presents its plan for you to approve before anything changes",
		brief: "read, plan, and present the plan for approval",
	},
};
