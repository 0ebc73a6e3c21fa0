// `${VAR}` and `${VAR:-default}` in MCP configuration values, as Claude Code reads them: a configuration file
// names a token it does not hold (`"Authorization": "Bearer ${GITHUB_TOKEN}"`).

/** A value names variables that are not set and have no default. */
export class MissingVariablesError extends Error {
	constructor(readonly names: readonly string[]) {
		super(`${names.map((name) => `\${${name}}`).join(", ")} ${names.length === 1 ? "is" : "are"} not set`);
		this.name = "MissingVariablesError";
	}
}

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * `text` with each `${VAR}` replaced by the variable's value and each `${VAR:-default}` by its value or, when it
 * is unset or empty, the default. Throws MissingVariablesError naming every unset variable without a default.
 */
export function expandVariables(text: string, env: Readonly<Record<string, string | undefined>>): string {
	const missing: string[] = [];
	const expanded = text.replace(REFERENCE, (_match, name: string, fallback: string | undefined) => {
		const value = env[name];
		if (fallback !== undefined) return value === undefined || value === "" ? fallback : value;
		if (value === undefined) {
			if (!missing.includes(name)) missing.push(name);
			return "";
		}
		return value;
	});
	if (missing.length > 0) throw new MissingVariablesError(missing);
	return expanded;
}
