// The approval modes, from the loosest to the strictest. Their own module: the command line reads them at
// startup, before anything heavy (settings' schema library) is loaded.
export const APPROVAL_MODES = ["auto", "ask", "read-only"] as const;
export type ApprovalMode = (typeof APPROVAL_MODES)[number];
