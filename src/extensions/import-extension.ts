// Loads an extension module without a build step: TypeScript or JavaScript, ES module or CommonJS syntax, through
// jiti (a kept, dependency-free loader that transpiles on the fly and resolves imports as Node does). jiti is
// imported on the first extension only, so a loom without extensions never loads it.
import { statSync } from "node:fs";
import type { Jiti } from "jiti";
import type { ExtensionFactory } from "./extension-api.js";

/** An extension's own file larger than this is refused before any byte is read (bundle big dependencies apart). */
export const MAX_EXTENSION_BYTES = 16 * 1024 * 1024;

export interface ExtensionImporter {
	/** The module's default export, checked to be a function; throws a one-line message otherwise. */
	importFactory(path: string): Promise<ExtensionFactory>;
}

/**
 * `modules`: what `import … from "<name>"` gives an extension for these names whatever its folder holds (loom's
 * own entry, TypeBox), so an extension in ~/.loom/extensions needs no node_modules of its own, and shares the
 * running loom's instances.
 */
export function extensionImporter(modules: () => Promise<Record<string, unknown>>): ExtensionImporter {
	let loader: Promise<Jiti> | undefined;
	const jiti = () =>
		(loader ??= Promise.all([import("jiti"), modules()]).then(([{ createJiti }, virtualModules]) =>
			createJiti(import.meta.url, {
				virtualModules,
				// Each session gets its extensions' modules afresh (an edited file is read again); nothing is cached on disk.
				moduleCache: false,
				fsCache: false,
				interopDefault: true,
			}),
		));
	return {
		async importFactory(path) {
			checkFile(path);
			let loaded: unknown;
			try {
				loaded = await (await jiti()).import(path, { default: true });
			} catch (error) {
				throw new Error(oneLine(error));
			}
			if (typeof loaded !== "function") {
				throw new Error("it has no default export function: write `export default function (loom: ExtensionAPI) { … }`.");
			}
			return loaded as ExtensionFactory;
		},
	};
}

function checkFile(path: string): void {
	const stat = statSync(path);
	if (!stat.isFile()) throw new Error("it is not a regular file.");
	if (stat.size > MAX_EXTENSION_BYTES) throw new Error(`it is ${stat.size} bytes, over the ${MAX_EXTENSION_BYTES} loom loads as an extension.`);
}

/** jiti's messages span lines (the parser's name, then the position); a report is one line. */
function oneLine(error: unknown): string {
	const message = error instanceof Error ? error.message : String(error);
	return message.replace(/\s+/g, " ").trim() || "it failed to load.";
}
