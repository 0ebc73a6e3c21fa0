// The session's secret mask with the tokens of auth.json in it, kept current: a login renewed or made while the
// session runs (a new access token, /login, /mcp login) is masked from then on, like the keys known at the start.
import { statSync } from "node:fs";
import { authFilePath, authFileSecrets, readAuthFile, type SecretMask } from "../core/index.js";

/** A mask built by `build` from auth.json's tokens, built again whenever the file changes. */
export function maskWithStoredLogins(home: string, build: (tokens: readonly string[]) => SecretMask): SecretMask {
	let stamp: string | undefined;
	let current: SecretMask | undefined;
	const mask = (): SecretMask => {
		const stat = statSync(authFilePath(home), { throwIfNoEntry: false });
		const now = stat ? `${stat.mtimeMs}:${stat.size}:${stat.ino}` : "none";
		if (current === undefined || now !== stamp) {
			stamp = now;
			current = build(storedTokens(home));
		}
		return current;
	};
	return {
		get values() {
			return mask().values;
		},
		mask: (text) => mask().mask(text),
		maskLive: (text) => mask().maskLive(text),
	};
}

/** The tokens auth.json holds; none when it cannot be read. */
function storedTokens(home: string): string[] {
	try {
		return authFileSecrets(readAuthFile(home));
	} catch {
		return [];
	}
}
