// Door of the configuration: loom's home, settings files and their keys, approval modes, project trust.
export { APPROVAL_MODES, APPROVAL_MODE_TEXT, SANDBOX_MODES, type ApprovalMode, type SandboxMode } from "./approval-mode.js";
export { isProjectTrusted, projectTrust, setProjectTrust } from "./project-trust.js";
export { RUNS_LATER_NAMES, runsLater } from "./runs-later.js";
export {
	MAX_CONFIG_BYTES,
	SettingsError,
	loadProjectSettings,
	loadSettings,
	loomHome,
	loomHomeProblem,
	projectSettingsPath,
	settingsPath,
	settingsWarnings,
	type Settings,
	NOTIFY_VIA,
	type NotifyVia,
} from "./settings.js";
